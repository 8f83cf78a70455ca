/**
 * What the embeddable handlers share: their options, the responder they wrap (the same one
 * `cpmx serve` wraps, so the three answer alike), and the mount prefix they serve under.
 */
import type { CatalogSource } from '../client/bytes-source.js';
import type { SourceOptions } from '../client/open-source.js';
import { VERSION } from '../version.js';
import { createResponder, type Responder, type ResponderOptions } from './respond.js';

export interface HandlerOptions extends SourceOptions, Omit<ResponderOptions, 'source' | 'version'> {
  /**
   * The path the handler is mounted under (`/cpmx` serves `/cpmx/query/...` and
   * `/cpmx/health`), for frameworks that pass the whole path on. Default: none, as for
   * Express's `app.use('/cpmx', ...)` or Hono's `app.mount('/cpmx', ...)`, which strip it.
   */
  prefix?: string | undefined;
}

/** The responder for a handler's options over its source (already opened); loads the artifact now when it can. */
export function responderOver(source: CatalogSource, options: HandlerOptions): Responder {
  const { prefix: _prefix, data: _data, dataPath: _dataPath, ...rest } = options;
  return createResponder({ ...rest, source, version: VERSION });
}

/** The prefix as matched: `''`, or `/name` with no trailing slash. */
export function mountPrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  if (!prefix.startsWith('/') || /[?#]/.test(prefix)) throw new TypeError(`cpmx: prefix must be a path starting with "/", got "${prefix}"`);
  return prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
}

/**
 * The request target below `prefix` (`/cpmx/health?x` → `/health?x`), or undefined when the
 * target is not under it.
 */
export function belowPrefix(target: string, prefix: string): string | undefined {
  if (prefix === '') return target;
  if (!target.startsWith(prefix)) return undefined;
  const next = target.charAt(prefix.length);
  if (next === '/') return target.slice(prefix.length);
  if (next === '') return '/';
  if (next === '?') return `/${target.slice(prefix.length)}`;
  return undefined;
}

/** What a target outside the prefix is answered as: a path of no method (111, 404), as `cpmx serve` answers one. */
export const OUTSIDE = '/';

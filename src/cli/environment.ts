/**
 * The command line's defaults from the environment, resolved here and nowhere else: a flag
 * wins, then its variable, then the built-in default.
 */
import { isIP } from 'node:net';
import { artifactPath } from '../paths.js';
import { UsageError } from './command.js';

const env = process.env;

/** `--token`, else CPMX_TOKEN. */
export function tokenOption(flag: string | undefined): string | undefined {
  return flag ?? env.CPMX_TOKEN;
}

/** `--data`, else CPMX_DATA, else the package's artifact. */
export function dataOption(flag: string | undefined): string {
  return artifactPath(flag);
}

/** `--registry`, else CPMX_REGISTRY. */
export function registryOption(flag: string | undefined): string | undefined {
  return flag ?? env.CPMX_REGISTRY;
}

/** `--metrics-token`, else CPMX_METRICS_TOKEN (an empty one is none): out of the process list, where a flag shows. */
export function metricsTokenOption(flag: string | undefined): string | undefined {
  return flag ?? (env.CPMX_METRICS_TOKEN || undefined);
}

/** A host name as DNS spells one (RFC 1123 labels), or an IP address. */
const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** `--host`, else HOST, else loopback; anything but an IP address or a host name is refused. */
export function hostOption(flag: string | undefined): string {
  const host = flag ?? (env.HOST || '127.0.0.1');
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    throw new UsageError(`${flag === undefined ? 'the HOST environment variable' : '--host'} must be an IP address or a host name to listen on, got "${host}"`);
  }
  return host;
}

/** `--port`, else PORT, else 3000 (as text: the caller checks it). */
export function portOption(flag: string | undefined): string {
  return flag ?? env.PORT ?? '3000';
}

/** `--page-url`, else CPMX_DOWNLOAD_PAGE (a mirror of the export page), else undefined: the official page. */
export function downloadPageOption(flag: string | undefined): string | undefined {
  const page = flag ?? (env.CPMX_DOWNLOAD_PAGE || undefined);
  if (page === undefined) return undefined;
  const url = URL.canParse(page) ? new URL(page) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new UsageError(`${flag === undefined ? 'CPMX_DOWNLOAD_PAGE' : '--page-url'} must be an http or https address of the export page, got "${page}"`);
  }
  return page;
}

const LAST_EPOCH_SECOND = 253_402_300_799;

/**
 * The build time to record: SOURCE_DATE_EPOCH (seconds; the reproducible-builds convention) for
 * byte-identical rebuilds, else undefined (now). Anything but whole seconds is refused.
 */
export function buildTimeOption(): Date | undefined {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch === undefined || epoch === '') return undefined;
  // Up to the last second of year 9999: past it, no ISO 8601 date can record it.
  if (!/^\d+$/.test(epoch) || Number(epoch) > LAST_EPOCH_SECOND) {
    throw new UsageError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got "${epoch}" (at most ${LAST_EPOCH_SECOND}, the end of 9999)`);
  }
  return new Date(Number(epoch) * 1000);
}

export const TOKEN_HELP = 'the token (default: the CPMX_TOKEN environment variable); "pruebas" is test mode';
export const DATA_HELP = "the artifact to read (default: CPMX_DATA, else the package's data/cpmx.msgpack)";

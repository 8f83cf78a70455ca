/**
 * Downloads the official catalog the way a browser does on CodigoPostal_Exportar.aspx: GET the
 * page, read its form, POST it back with "Txt" and the chosen state, and receive the zip. The
 * zip is checked to be the catalog before it is written, atomically, to `out`: a failed download
 * never leaves a file behind nor replaces a good one.
 */
import { createHash } from 'node:crypto';
import { ArtifactWriteError } from '../errors.js';
import { checkArtifactPath, writeFileAtomic } from '../write.js';
import { DownloadError, OFFICIAL_PAGE_URL } from './errors.js';
import { ALL_STATES, pageTitle, readExportForm, type ExportForm } from './form.js';
import { withRetry, type RetryInfo } from './retry.js';
import { BrowserSession, type SessionResponse } from './session.js';
import { checkCatalogZip, isZip, type CatalogMember } from './zip.js';

export interface DownloadOptions {
  /** Where to write the zip (the CLI defaults it to the package's data/CPdescargatxt.zip). */
  out: string;
  /** A state key as the page lists them, `01`–`32`, or `00` (the default) for all states. */
  state?: string;
  /** The export page; tests point it at a replica. Default: the official page. */
  pageUrl?: string;
  /** Until the TCP connection is made. Default 15 s. */
  connectTimeoutMs?: number;
  /** The longest silence once connected, waiting for an answer or inside one. Default 30 s. */
  idleTimeoutMs?: number;
  /** The whole download, retries and their waits included. Default 5 min. */
  totalTimeoutMs?: number;
  /** Attempts after the first, for transient failures only. Default 2. */
  retries?: number;
  /** The wait after the first failed attempt, doubled after each further one. Default 1 s. */
  retryDelayMs?: number;
  /** The largest answer accepted, page or zip. Default 64 MiB (the whole catalog's zip is ~2 MB). */
  maxBytes?: number;
  /** Called as the zip arrives; `totalBytes` is undefined when the site announces no length. */
  onProgress?: (bytesReceived: number, totalBytes: number | undefined) => void;
  /** Called before each new attempt, with the failure that caused it. */
  onRetry?: (info: RetryInfo) => void;
  /** Aborts the download (a DownloadError of kind `aborted`). */
  signal?: AbortSignal;
}

export interface DownloadResult {
  /** The file written: `out` as given. */
  path: string;
  /** The zip's size and sha256. */
  bytes: number;
  sha256: string;
  /** The state key posted. */
  state: string;
  /** The catalog member found in the zip. */
  member: CatalogMember;
  /** The field names the page's form used, as read from it. */
  fields: ExportForm['fields'];
  /** Attempts made, 1 when the first succeeded. */
  attempts: number;
  /** The page downloaded from. */
  pageUrl: string;
}

export const DEFAULTS: Readonly<Required<Pick<DownloadOptions, TunedOption>>> = {
  connectTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  totalTimeoutMs: 5 * 60_000,
  retries: 2,
  retryDelayMs: 1_000,
  maxBytes: 64 * 1024 * 1024,
};

type TunedOption = 'connectTimeoutMs' | 'idleTimeoutMs' | 'totalTimeoutMs' | 'retries' | 'retryDelayMs' | 'maxBytes';
type Settings = DownloadOptions & Required<Pick<DownloadOptions, TunedOption>>;

export async function downloadCatalog(options: DownloadOptions): Promise<DownloadResult> {
  if (typeof options.out !== 'string' || options.out === '') throw new TypeError('downloadCatalog needs `out`, the path to write the zip to');
  const settings: Settings = { ...DEFAULTS, ...withoutUndefined(options), out: options.out };
  const state = settings.state ?? ALL_STATES;
  const pageUrl = parsePageUrl(settings.pageUrl ?? OFFICIAL_PAGE_URL);
  if (!/^\d{2}$/.test(state)) {
    throw new DownloadError('unknown-state', `the state key must be two digits (${ALL_STATES} for all states, 01 to 32 for one), got "${state}"`).settle(0, pageUrl.href);
  }
  // A path that cannot be written (a directory, a read-only file, ...) is refused before the download.
  try {
    write(settings.out);
  } catch (error) {
    throw error instanceof DownloadError ? error.settle(0, pageUrl.href) : error;
  }

  // One signal ends everything in flight: the caller's, or the total timeout.
  const controller = new AbortController();
  const total = setTimeout(
    () => controller.abort(new DownloadError('timeout', `the download did not finish within ${settings.totalTimeoutMs} ms`)),
    settings.totalTimeoutMs,
  );
  const onCallerAbort = () => controller.abort(new DownloadError('aborted', 'the download was aborted'));
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let attempts = 0;
  try {
    const fetched = await withRetry(
      () => {
        attempts++;
        return fetchCatalogZip(pageUrl, state, settings, controller.signal);
      },
      { retries: settings.retries, delayMs: settings.retryDelayMs, signal: controller.signal, onRetry: settings.onRetry },
    );
    write(settings.out, fetched.zip);
    return {
      path: settings.out,
      bytes: fetched.zip.length,
      sha256: createHash('sha256').update(fetched.zip).digest('hex'),
      state,
      member: fetched.member,
      fields: fetched.form.fields,
      attempts,
      pageUrl: pageUrl.href,
    };
  } catch (error) {
    if (error instanceof DownloadError) throw error.settle(Math.max(attempts, 1), pageUrl.href);
    throw error;
  } finally {
    clearTimeout(total);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** One attempt: a fresh session (new cookies, new view state), the page, the form, the zip. */
async function fetchCatalogZip(pageUrl: URL, state: string, settings: Settings, signal: AbortSignal) {
  const session = new BrowserSession({
    timeouts: { connectMs: settings.connectTimeoutMs, idleMs: settings.idleTimeoutMs },
    signal,
    maxBytes: settings.maxBytes,
  });
  const page = await session.get(pageUrl);
  expectOk(page, 'the download page');
  const form = readExportForm(decodeHtml(page), page.url);
  if (!form.states.some((s) => s.key === state)) {
    const offered = form.states.map((s) => `${s.key} (${s.label})`).join(', ');
    throw new DownloadError('unknown-state', `the page offers no state ${state}; it offers ${offered}`);
  }

  const answer = await session.postForm(form.action, form.body(state), page.url, settings.onProgress);
  expectOk(answer, 'the form');
  if (!isZip(answer.body)) throw notAZip(answer);
  const member = checkCatalogZip(answer.body);
  return { zip: answer.body, member, form };
}

function expectOk(response: SessionResponse, what: string) {
  if (response.status === 200) return;
  const title = looksLikeHtml(response) ? pageTitle(decodeHtml(response)) : undefined;
  throw new DownloadError('http-status', `${what} at ${response.url.href} answered HTTP ${response.status}${title ? ` ("${title}")` : ''}`, {
    status: response.status,
    // The site's own trouble (5xx) may pass; a 4xx will answer the same again.
    transient: response.status >= 500 || response.status === 429,
  });
}

function notAZip(response: SessionResponse): DownloadError {
  const type = response.headers['content-type'] ?? 'no content type';
  if (!looksLikeHtml(response)) {
    return new DownloadError('not-a-zip', `the site answered ${response.body.length} bytes of ${type} instead of a zip (from ${response.url.href})`);
  }
  const html = decodeHtml(response);
  const title = pageTitle(html);
  const named = title ? ` ("${title}")` : '';
  // WebForms answers a post it cannot act on with the form page again.
  const again = html.includes('__VIEWSTATE') ? ', the form page again: the site did not accept the posted form' : '';
  return new DownloadError('not-a-zip', `the site answered an HTML page${named} instead of the zip${again} (from ${response.url.href})`);
}

function looksLikeHtml(response: SessionResponse): boolean {
  const type = response.headers['content-type'] ?? '';
  if (/html|xml/i.test(type)) return true;
  const start = response.body.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  return start.startsWith('<');
}

function decodeHtml(response: SessionResponse): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(response.headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(response.body);
  } catch {
    return new TextDecoder('utf-8').decode(response.body);
  }
}

/** Writes the zip to `out`; without one, only checks that `out` could be written. */
function write(out: string, zip?: Buffer) {
  try {
    if (zip) writeFileAtomic(out, zip);
    else checkArtifactPath(out);
  } catch (error) {
    const reason = error instanceof ArtifactWriteError ? error.reason : (error as Error).message;
    throw new DownloadError('write', `${zip ? 'the catalog was downloaded but ' : 'nothing was downloaded: the catalog '}cannot be written to ${out}: ${reason}`, { cause: error });
  }
}

function parsePageUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`pageUrl is not a web address: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`pageUrl must be http or https, got "${text}"`);
  return url;
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

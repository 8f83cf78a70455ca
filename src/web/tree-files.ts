/**
 * The web tree's files as the client gets them: fetched once each (in-flight fetches shared,
 * results kept), retried with backoff when the network or the server fails, checked against
 * the hash their parent names, and refused with a `WebTreeError` that says what is wrong with
 * the tree (missing, stale, damaged, unreachable). Only `fetch`: no Node API.
 */
import { crc32 } from '../core/crc32.js';
import { DIRECT_PART, MANIFEST, WEB_FORMAT, WEB_FORMAT_VERSION, directFileName, hashText, treeFileName, type DigitFile, type StateFile, type StatesFile, type WebManifest } from './format.js';
import type { Arrived } from './view.js';

/** What is wrong with the tree: none at the address, not matching its manifest, a file whose bytes are not the ones named, or no answer from the host. */
export type WebTreeProblem = 'missing' | 'stale' | 'damaged' | 'unreachable';

/** The tree at `base` cannot answer: the message says why and what to do. No answer is made from such a tree. */
export class WebTreeError extends Error {
  override name = 'WebTreeError';
  constructor(
    readonly problem: WebTreeProblem,
    /** The file's address. */
    readonly url: string,
    message: string,
  ) {
    super(`cpmx/web: ${message}`);
  }
}

export interface TreeFetchOptions {
  /** Where the tree is: the folder `cpmx export web` wrote, as a URL (relative to the page in a browser). */
  base: string | URL;
  /** The fetch to use (default `globalThis.fetch`). */
  fetch?: typeof fetch | undefined;
  /** Attempts after the first when the network fails or the host answers 408, 429 or 5xx (default 2). */
  retries?: number | undefined;
  /** The first retry's delay in milliseconds, doubled each time (default 250). */
  retryDelay?: number | undefined;
}

/** The tree changed on the server since its manifest was read: start over with the new one. */
export class TreeReplaced {}

const decoder = new TextDecoder('utf-8', { fatal: true });
const AGAIN = 'export and copy the tree again, manifest last';
/** Whether a parent names a file by a hash: eight lowercase hex digits, checked before any URL is built from it (never `../`, an address or an escape). */
const isHash = (value: unknown): value is string => /^[0-9a-f]{8}$/.test(value as string) && typeof value === 'string';

/** `promise`, or the signal's reason as soon as it aborts; what is fetched goes on for the next caller. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class TreeFiles {
  private readonly base: URL;
  private readonly fetcher: typeof fetch;
  private readonly retries: number;
  private readonly retryDelay: number;
  private manifestText: string | undefined;
  private arrived: Promise<Arrived> | undefined;
  /** The manifest and files once the manifest has arrived (what is known without waiting). */
  private known: Arrived | undefined;
  private loading = new Map<string, Promise<unknown>>();
  /** Bytes of file bodies received (as decoded, before any content encoding is undone: see the README for what goes over the wire). */
  bytesReceived = 0;

  constructor(options: TreeFetchOptions) {
    const page = (globalThis as { location?: { href?: string } }).location?.href;
    let base = String(options.base);
    if (!base.endsWith('/')) base += '/';
    try {
      this.base = new URL(base, page);
    } catch {
      throw new TypeError(`createWebClient: base "${base}" is not a URL${page ? '' : ' (outside a page, give an absolute one)'}`);
    }
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.retries = options.retries ?? 2;
    this.retryDelay = options.retryDelay ?? 250;
  }

  /** A file's bytes; 404 is undefined. Network failures and 408, 429, 5xx are tried again. */
  private async get(name: string, query = ''): Promise<Uint8Array | undefined> {
    const url = new URL(name, this.base).href;
    for (let attempt = 0; ; attempt++) {
      let status: number;
      let failure: string;
      try {
        const response = await this.fetcher(url + query);
        // A host that answers every unknown path with its app's page (a single-page app's fallback) has no such file.
        if (response.ok && /html/.test(response.headers.get('content-type') ?? '')) return undefined;
        if (response.ok) {
          const bytes = new Uint8Array(await response.arrayBuffer());
          this.bytesReceived += bytes.length;
          return bytes;
        }
        if (response.status === 404 || response.status === 410) return undefined;
        status = response.status;
        failure = `HTTP ${status}`;
      } catch (error) {
        status = 0;
        failure = error instanceof Error ? error.message : String(error);
      }
      const transient = status === 0 || status === 408 || status === 429 || status >= 500;
      if (!transient || attempt >= this.retries) {
        throw new WebTreeError('unreachable', url, `${url} could not be fetched (${failure}${transient ? `, after ${attempt + 1} attempts` : ''})`);
      }
      await delay(this.retryDelay * 2 ** attempt);
    }
  }

  /**
   * The manifest. Its host should serve it with `Cache-Control: no-cache`; `fresh` goes around
   * every cache (no RequestInit `cache` mode: some edge runtimes refuse them).
   */
  private async readManifest(fresh = false): Promise<{ text: string; manifest: WebManifest }> {
    const url = new URL(MANIFEST, this.base).href;
    const bytes = await this.get(MANIFEST, fresh ? `?fresh=${Date.now()}` : '');
    const help = 'run `cpmx export web DIR` and serve DIR at this address';
    if (!bytes) throw new WebTreeError('missing', url, `no web tree at ${this.base.href} (${MANIFEST} answered 404): ${help}`);
    let text = '';
    let manifest: WebManifest | undefined;
    try {
      text = decoder.decode(bytes);
      manifest = JSON.parse(text);
    } catch {
      manifest = undefined;
    }
    if (manifest?.format !== WEB_FORMAT) throw new WebTreeError('missing', url, `${url} is not a cpmx web tree's manifest: ${help}`);
    if (manifest.version !== WEB_FORMAT_VERSION) {
      throw new WebTreeError(
        'stale',
        url,
        `the tree at ${this.base.href} has format version ${manifest.version}, this cpmx/web reads ${WEB_FORMAT_VERSION}: export it with this cpmx`,
      );
    }
    // Named as a tree's manifest names its files: the state list's hash, and a hash per first digit.
    const { estados, digits } = manifest;
    if (!isHash(estados) || !(digits instanceof Object) || Array.isArray(digits) || !Object.entries(digits).every(([d, hash]) => /^\d$/.test(d) && isHash(hash))) {
      throw new WebTreeError('damaged', url, `${url} names no hashes: ${AGAIN}`);
    }
    return { text, manifest };
  }

  /** The files arrived so far, with the manifest (read once). */
  tree(): Promise<Arrived> {
    if (!this.arrived) {
      const arrived = this.readManifest().then(({ text, manifest }) => {
        this.manifestText = text;
        return (this.known = { manifest, files: new Map<string, unknown>() });
      });
      arrived.catch(() => {
        if (this.arrived === arrived) this.arrived = undefined;
      });
      this.arrived = arrived;
    }
    return this.arrived;
  }

  /** Forgets the manifest and every file: the next answer reads the tree afresh. */
  reset(): void {
    this.arrived = undefined;
    this.known = undefined;
    this.manifestText = undefined;
    this.loading = new Map();
  }

  /** A part's hash, as its parent names it (loading the parent first); undefined when the parent names none. */
  private async hashOf(part: string, tree: Arrived): Promise<unknown> {
    const kind = part[0];
    const rest = part.slice(1);
    if (kind === 'e') return tree.manifest.estados;
    if (kind === 'd') return tree.manifest.digits[rest];
    if (kind === 'c' || kind === 'k') {
      const digit = (await this.load(`d${rest[0]}`)) as DigitFile;
      return kind === 'k' ? digit.codes : digit.shards[rest];
    }
    const clave = rest.slice(0, 2);
    const states = (await this.load('e')) as StatesFile;
    const state = states.claves.indexOf(Number(clave));
    if (state < 0) return undefined;
    if (kind === 's') return states.files[state];
    if (kind === 'p') return states.codes[state];
    if (kind === 'x') return states.keys[state];
    const key = Number(rest.slice(3));
    return ((await this.load(`s${clave}`)) as StateFile).entries.find((entry) => entry[1] === key)?.[2];
  }

  /** Loads a part (and the parts that name it), once; it is then in the tree's `files`. */
  load(part: string): Promise<unknown> {
    let loading = this.loading.get(part);
    if (!loading) {
      const map = this.loading;
      loading = this.fetchPart(part);
      loading.catch(() => {
        if (map.get(part) === loading) map.delete(part);
      });
      map.set(part, loading);
    }
    return loading;
  }

  /** Whether the file that names a part's hash has arrived (the manifest for the state list and the digits' indexes). */
  private parentKnown(part: string): boolean {
    return part[0] === 'c' ? this.known?.files.has(`d${part[1]}`) === true : this.known !== undefined;
  }

  /** Starts loading parts an answer will need, before it asks for them (failures are the answer's to report). */
  prefetch(parts: readonly string[]): void {
    for (const part of parts) this.load(part).catch(() => {});
  }

  private async fetchPart(part: string): Promise<unknown> {
    // Before its parent has arrived, a part with a direct name is fetched by it at once, beside the parent.
    const direct = DIRECT_PART.test(part) && !this.parentKnown(part) ? this.get(directFileName(part)).catch(() => undefined) : undefined;
    const tree = await this.tree();
    let hash: unknown;
    try {
      hash = await this.hashOf(part, tree);
    } catch (error) {
      // A parent whose bytes match its hash but not a tree file's shape (an exporter other than cpmx's).
      if (!(error instanceof TypeError)) throw error;
      hash = null;
    }
    if (!isHash(hash)) throw new WebTreeError('damaged', new URL(treeFileName(part, '00000000'), this.base).href, `no ${hash === undefined ? 'file' : 'hash'} named for ${part}: ${AGAIN}`);
    const name = treeFileName(part, hash);
    const url = new URL(name, this.base).href;
    const early = await direct;
    // A direct name from another export (or damaged) is passed over for the hashed one; one that matches is not hashed twice.
    let bytes = early && hashText(crc32(early)) === hash ? early : undefined;
    if (!bytes) {
      bytes = await this.get(name);
      if (!bytes) {
        // Replaced on the server since its manifest was read? Then start over with the new one.
        const fresh = await this.readManifest(true);
        if (fresh.text !== this.manifestText) {
          this.reset();
          throw new TreeReplaced();
        }
        throw new WebTreeError(
          'stale',
          url,
          `${url} is named by the manifest but not on the server, so they do not match: ${AGAIN}`,
        );
      }
      const actual = hashText(crc32(bytes));
      if (actual !== hash) throw new WebTreeError('damaged', url, `${url} is damaged (CRC-32 ${actual}, not ${hash}): ${AGAIN}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(bytes));
    } catch {
      throw new WebTreeError('damaged', url, `${url} is not JSON: ${AGAIN}`);
    }
    tree.files.set(part, value);
    return value;
  }
}

/**
 * The bytes of real-data answers, serialised once per answer and reused: a successful answer is
 * a pure function of the catalog, this cpmx and the request, all of which its ETag names
 * (conditional.ts), so the ETag is its key. Serialising (JSON.stringify, then UTF-8) is most of
 * what a request costs the server beyond Node's own work; a hit costs a Map lookup. Bounded by
 * bytes: past the budget the cache starts over (as fast as an LRU for these keys, and nothing to
 * reorder on a hit). Answers of another catalog never mix: the cache is emptied when it changes.
 */

/** The default budget: every info_cp simplified answer of the real catalog fits about twice. */
export const BODY_CACHE_BYTES = 16 * 1024 * 1024;

const encoder = new TextEncoder();
/** UTF-8 bytes: Node's Buffer where there is one (faster to make and to write), else a TextEncoder's. */
export const utf8: (text: string) => Uint8Array = typeof Buffer === 'function' ? (text) => Buffer.from(text) : (text) => encoder.encode(text);

export class BodyCache {
  readonly #bodies = new Map<string, Uint8Array>();
  readonly #budget: number;
  #bytes = 0;
  #owner: unknown;

  constructor(budget = BODY_CACHE_BYTES) {
    this.#budget = budget;
  }

  /** The bytes of `body` (answering `etag` from the catalog `owner`), serialised at most once while they are kept. */
  bytes(owner: unknown, etag: string, body: unknown): Uint8Array {
    if (owner !== this.#owner) {
      this.#bodies.clear();
      this.#bytes = 0;
      this.#owner = owner;
    }
    let bytes = this.#bodies.get(etag);
    if (bytes !== undefined) return bytes;
    bytes = utf8(JSON.stringify(body));
    if (this.#budget <= 0) return bytes;
    if (this.#bytes + bytes.length + etag.length > this.#budget) {
      this.#bodies.clear();
      this.#bytes = 0;
    }
    this.#bodies.set(etag, bytes);
    this.#bytes += bytes.length + etag.length;
    return bytes;
  }
}

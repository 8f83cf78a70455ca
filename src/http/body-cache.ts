/**
 * What real-data answers cost, paid once per catalog and reused. A successful answer is a pure
 * function of the catalog, this cpmx and the request, all of which its ETag names
 * (conditional.ts), so its bytes are kept by ETag: serialising (then UTF-8) is most of what a
 * request costs the server beyond Node's own work, and a hit costs a Map lookup.
 *
 * Where the request target alone decides the answer (no registry to spend a credit with, the
 * token in the query), the whole answer is kept by target too: status, headers with
 * Content-Length and the bytes, made once and written as they are, so such a request costs a
 * Map lookup and no parsing, routing, lookup or header building.
 *
 * One cache belongs to one catalog (`catalog`): a catalog loaded anew gets a new cache, so a
 * swap is one reference change and answers of two catalogs never mix. Bounded by bytes: past
 * the budget the cache starts over (as fast as an LRU for these keys, and nothing to reorder
 * on a hit).
 */
/** The default budget: every info_cp simplified answer of the real catalog fits, with its target, about twice. */
export const BODY_CACHE_BYTES = 16 * 1024 * 1024;

/** What a kept entry costs beyond its key and bytes (the Map's slot, the answer and its headers). */
const ENTRY_OVERHEAD = 160;

const encoder = new TextEncoder();
/** UTF-8 bytes: Node's Buffer where there is one (faster to make and to write), else a TextEncoder's. */
export const utf8: (text: string) => Uint8Array = typeof Buffer === 'function' ? (text) => Buffer.from(text) : (text) => encoder.encode(text);

/** `bytes` as a Latin-1 string (one character per byte; the same bytes on the wire), or undefined without Node's Buffer. */
const latin1: (bytes: Uint8Array) => string | undefined =
  typeof Buffer === 'function' ? (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1') : () => undefined;

/**
 * An answer kept whole (an HttpAnswer of respond.ts): its headers end with Content-Length; shared
 * by every request for its target, so never changed. It is already what a GET puts on the wire
 * (a WireAnswer of answer.ts), so such a request allocates no answer of its own.
 */
export interface PreparedAnswer {
  readonly status: number;
  readonly headers: string[];
  readonly body: Uint8Array;
  readonly etag: string;
  readonly prepared: true;
  readonly refund: undefined;
  /** The body's length, for the access log. */
  readonly bytes: number;
  readonly close: false;
  /**
   * The body's bytes as a Latin-1 string (one character per byte), where Node's Buffer is: what
   * node:http writers send. Node joins a string body to the header block and writes both in one
   * call; a Buffer body goes out as a second chunk through the socket's gather write.
   */
  readonly latin1: string | undefined;
}

export class AnswerCache {
  readonly #bodies = new Map<string, Uint8Array>();
  readonly #answers = new Map<string, PreparedAnswer>();
  readonly #budget: number;
  #bytes = 0;

  /** The cache of the answers of `catalog`, within `budget` bytes (0: nothing is kept). */
  constructor(
    readonly catalog: unknown,
    budget = BODY_CACHE_BYTES,
  ) {
    this.#budget = budget;
  }

  /** The bytes of the answer named `etag`, made by `serialize` at most once while they are kept. */
  bytes(etag: string, serialize: () => string): Uint8Array {
    let bytes = this.#bodies.get(etag);
    if (bytes !== undefined) return bytes;
    bytes = utf8(serialize());
    if (this.#fits(bytes.length + etag.length)) this.#bodies.set(etag, bytes);
    return bytes;
  }

  /** The answer kept for `target`, if any. */
  answer(target: string): PreparedAnswer | undefined {
    return this.#answers.get(target);
  }

  /**
   * Keeps `answer` (status, headers and bytes of a GET) for `target`, whose answer it is
   * whatever else the request carries, and returns it as kept: its headers gain Content-Length.
   */
  keep(target: string, answer: { status: number; headers: readonly string[] }, etag: string, body: Uint8Array): PreparedAnswer {
    // Not frozen: Node reads a frozen array's elements on a slower path, for every request.
    const headers = [...answer.headers, 'Content-Length', String(body.length)];
    const text = latin1(body);
    const prepared: PreparedAnswer = { status: answer.status, headers, body, etag, prepared: true, refund: undefined, bytes: body.length, close: false, latin1: text };
    if (this.#fits(target.length + ENTRY_OVERHEAD + (text?.length ?? 0))) this.#answers.set(target, prepared);
    return prepared;
  }

  /** Makes room for `bytes` more, starting over past the budget; false when nothing may be kept. */
  #fits(bytes: number): boolean {
    if (this.#budget <= 0) return false;
    if (this.#bytes + bytes > this.#budget) {
      this.#bodies.clear();
      this.#answers.clear();
      this.#bytes = 0;
    }
    this.#bytes += bytes;
    return true;
  }
}

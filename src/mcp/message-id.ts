/**
 * The `id` of a JSON-RPC message read from its bytes as they pass, keeping none of the rest:
 * a message too large to keep (stdio.ts) is still answered under its own id. A small
 * streaming scan of the top-level object's keys: the id may come before or after a params
 * object of any size, and a string inside params that reads `"id":` is not taken for it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Longest id kept, in bytes: JSON-RPC ids are short strings or numbers; a longer one is not read. */
const MAX_ID_BYTES = 1024;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** What the scan expects next in the top-level object. */
type Expecting = 'key' | 'colon' | 'value' | 'comma';

export class MessageIdReader {
  /** The id: a string or a number once read, null once it is known there is none to read, undefined while unknown. */
  #id: string | number | null | undefined;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expecting: Expecting = 'key';
  /** What the bytes being kept are: a top-level key, or the id's value. */
  #keeping: 'key' | 'id' | undefined;
  #kept: number[] = [];
  #key = '';

  /** The id of the message, or null when it has none that can be read (not an object, no `id`, an id not a string or number). */
  get id(): string | number | null {
    return this.#id ?? null;
  }

  /** Reads the next bytes of the message; stops looking once the id is known. */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.#id === undefined; i++) this.#step(bytes[i]!);
  }

  #keep(byte: number): void {
    if (this.#kept.length >= MAX_ID_BYTES) this.#id = null;
    else this.#kept.push(byte);
  }

  /** The id's value is whole: read it as JSON. */
  #finishId(): void {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(this.#kept).toString('utf8'));
    } catch {
      value = null;
    }
    this.#id = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : null;
  }

  #step(byte: number): void {
    if (this.#inString) {
      if (this.#keeping) this.#keep(byte);
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) this.#endString();
      return;
    }
    if (this.#keeping === 'id' && (isSpace(byte) || byte === COMMA || byte === CLOSE_OBJECT)) {
      this.#finishId();
      return;
    }
    if (isSpace(byte)) return;
    if (this.#depth === 0) {
      if (byte !== OPEN_OBJECT) this.#id = null;
      else this.#depth = 1;
      return;
    }
    if (this.#depth === 1 && this.#topLevel(byte)) return;
    // Inside a value (or a value that is not the id's): only its nesting matters.
    if (byte === QUOTE) this.#inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.#depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) this.#depth--;
  }

  /** A byte between the top-level object's members; true when it is handled here. */
  #topLevel(byte: number): boolean {
    switch (this.#expecting) {
      case 'key':
        if (byte !== QUOTE) break;
        this.#inString = true;
        this.#keeping = 'key';
        this.#kept = [byte];
        return true;
      case 'colon':
        if (byte !== COLON) break;
        this.#expecting = 'value';
        return true;
      case 'value':
        this.#expecting = 'comma';
        if (this.#key !== '"id"') return false;
        if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) break;
        this.#keeping = 'id';
        this.#kept = [byte];
        if (byte === QUOTE) this.#inString = true;
        return true;
      case 'comma':
        if (byte === COMMA) {
          this.#expecting = 'key';
          return true;
        }
        if (byte === CLOSE_OBJECT) break;
        if (this.#keeping === 'id') {
          this.#keep(byte);
          return true;
        }
        return false;
    }
    // The object ended without an id, or is not a JSON object's members.
    this.#id = null;
    return true;
  }

  #endString(): void {
    this.#inString = false;
    if (this.#keeping === 'key') {
      this.#key = Buffer.from(this.#kept).toString('utf8');
      this.#keeping = undefined;
      this.#expecting = 'colon';
    } else if (this.#keeping === 'id') this.#finishId();
  }
}

/**
 * Requests Node's parser refuses that real clients send: a request target with raw UTF-8 bytes
 * (PHP's `file_get_contents` with an accented state name, curl with an unencoded URL). Node
 * stops at the first such byte; here the head is read again with those bytes percent-encoded,
 * which is what the client meant, so it is answered as its percent-encoded twin. Anything else
 * wrong with the head keeps it refused.
 */

/** A request head read from raw bytes. */
export interface RawHead {
  method: string;
  /** The target, its bytes above 0x7F percent-encoded. */
  target: string;
  /** Flat [name, value, ...], as Node's `rawHeaders`. */
  rawHeaders: string[];
  http11: boolean;
}

const METHOD = /^[A-Z]{1,20}$/;
/** A header name: an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: visible characters, spaces and tabs, and obs-text (read as Latin-1, as Node does). */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The head at the start of `packet` with its target's raw bytes percent-encoded, when the head
 * is whole, has no body (no Transfer-Encoding, no Content-Length but 0), and is a valid
 * HTTP/1.0 or 1.1 head once they are; undefined otherwise.
 */
export function repairedHead(packet: Buffer): RawHead | undefined {
  const end = packet.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lineEnd = packet.indexOf('\r\n');
  const line = packet.subarray(0, lineEnd);
  const firstSpace = line.indexOf(32);
  const lastSpace = line.lastIndexOf(32);
  if (firstSpace <= 0 || lastSpace <= firstSpace + 1) return undefined;
  const method = line.subarray(0, firstSpace).toString('latin1');
  const version = line.subarray(lastSpace + 1).toString('latin1');
  if (!METHOD.test(method) || (version !== 'HTTP/1.1' && version !== 'HTTP/1.0')) return undefined;
  let target = '';
  let raw = false;
  for (const byte of line.subarray(firstSpace + 1, lastSpace)) {
    if (byte >= 0x80) {
      target += `%${byte.toString(16).toUpperCase()}`;
      raw = true;
    } else if (byte > 0x20 && byte < 0x7f) target += String.fromCharCode(byte);
    else return undefined;
  }
  if (!raw) return undefined;
  const rawHeaders: string[] = [];
  for (const text of packet.subarray(lineEnd + 2, end).toString('latin1').split('\r\n')) {
    if (text === '') continue;
    const colon = text.indexOf(':');
    const name = text.slice(0, colon);
    const value = text.slice(colon + 1).trim();
    if (colon <= 0 || !TOKEN.test(name) || !VALUE.test(value)) return undefined;
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding' || (lower === 'content-length' && value !== '0')) return undefined;
    rawHeaders.push(name, value);
  }
  return { method, target, rawHeaders, http11: version === 'HTTP/1.1' };
}

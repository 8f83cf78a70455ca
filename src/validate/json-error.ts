/**
 * Where a line stops being JSON, for error 130's reason ("invalid JSON at column 17"). Node
 * 20's JSON.parse names no position for most errors ("Unexpected token '}', ... is not valid
 * JSON"), so a line JSON.parse has refused is read again here, by RFC 8259's grammar, only to
 * find the column. Iterative: a line nested 60,000 deep is read as JSON.parse reads it.
 */

const ARRAY = 0;
const OBJECT = 1;

/** What comes next: a value, an object's key, or what follows a value. */
const Expect = { Value: 0, Key: 1, After: 2 } as const;

/** The 1-based column (in characters) of the first character where `text` is not JSON; one past the end when it stops short. */
export function jsonErrorColumn(text: string): number {
  const stack: number[] = [];
  let i = 0;
  let expect: number = Expect.Value;
  for (;;) {
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (expect === Expect.Value) {
      if (c === 0x7b || c === 0x5b) {
        const close = c === 0x7b ? 0x7d : 0x5d;
        i = skipSpace(text, i + 1);
        if (text.charCodeAt(i) === close) {
          i++;
          expect = Expect.After;
        } else {
          stack.push(c === 0x7b ? OBJECT : ARRAY);
          expect = c === 0x7b ? Expect.Key : Expect.Value;
        }
        continue;
      }
      const end = c === 0x22 ? stringEnd(text, i) : c === 0x2d || (c >= 0x30 && c <= 0x39) ? numberEnd(text, i) : literalEnd(text, i);
      if (end < 0) return -end;
      i = end;
      expect = Expect.After;
    } else if (expect === Expect.Key) {
      if (c !== 0x22) return i + 1;
      const end = stringEnd(text, i);
      if (end < 0) return -end;
      i = skipSpace(text, end);
      if (text.charCodeAt(i) !== 0x3a) return i + 1;
      i++;
      expect = Expect.Value;
    } else {
      if (stack.length === 0) return i < text.length ? i + 1 : text.length + 1;
      const top = stack[stack.length - 1];
      if (c === 0x2c) {
        i++;
        expect = top === OBJECT ? Expect.Key : Expect.Value;
      } else if ((c === 0x5d && top === ARRAY) || (c === 0x7d && top === OBJECT)) {
        stack.pop();
        i++;
      } else return i + 1;
    }
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  return i;
}

/** After a string starting at `from` (a quote), or minus the 1-based column of its error. */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -(i + 1);
    if (c === 0x5c) {
      const e = text.charCodeAt(++i);
      if (e === 0x75) {
        for (let k = 0; k < 4; k++) if (!isHex(text.charCodeAt(++i))) return -(i + 1);
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) return -(i + 1);
    }
  }
  return -(text.length + 1);
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** After a number starting at `from`, or minus the 1-based column of its error. */
function numberEnd(text: string, from: number): number {
  let i = from;
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30) i++;
  else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
  else return -(i + 1);
  if (text.charCodeAt(i) === 0x2e) {
    if (!isDigit(text.charCodeAt(++i))) return -(i + 1);
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(++i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return -(i + 1);
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** After `true`, `false` or `null` at `from`, or minus the 1-based column of the first wrong character. */
function literalEnd(text: string, from: number): number {
  const literal = ['true', 'false', 'null'].find((word) => word.charCodeAt(0) === text.charCodeAt(from));
  if (!literal) return -(from + 1);
  for (let k = 1; k < literal.length; k++) if (text.charCodeAt(from + k) !== literal.charCodeAt(k)) return -(from + k + 1);
  return from + literal.length;
}

/** Arrays and objects nested deeper than this make a record unreadable (130): no address needs more. */
export const MAX_JSON_DEPTH = 64;

/**
 * The 1-based column where `text` opens its array or object number `limit + 1` deep, or 0
 * when it never nests that deep. Strings are skipped (a bracket in a name is text); the
 * text need not be valid JSON. Linear, and nothing recursive ever sees the record.
 */
export function jsonDepthColumn(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i + 1;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return 0;
}

/**
 * A tag scanner for server-rendered HTML: start and end tags with their attributes, and the
 * text between them. It is enough to read a WebForms page's form controls, and linear in the
 * page's length whatever the page holds (no backtracking regular expression over the markup).
 * Comments, doctypes and the insides of <script> and <style> are skipped, so a tag quoted in
 * a script or commented out is never taken for a control.
 */

export interface StartTag {
  type: 'start';
  /** Lower case. */
  name: string;
  /** Names lower case, values with character references decoded; the first of a repeated name wins. */
  attributes: Map<string, string>;
}

export interface EndTag {
  type: 'end';
  name: string;
}

export interface Text {
  type: 'text';
  /** Character references decoded. */
  text: string;
}

export type Token = StartTag | EndTag | Text;

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

export function* scanHtml(html: string): Generator<Token> {
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open < 0) {
      yield text(html.slice(i));
      return;
    }
    if (open > i) yield text(html.slice(i, open));
    if (html.startsWith('<!--', open)) {
      i = skipPast(html, '-->', open + 4);
    } else if (html[open + 1] === '!' || html[open + 1] === '?') {
      i = skipPast(html, '>', open + 2);
    } else if (html[open + 1] === '/' && isLetter(html[open + 2])) {
      const { name, next } = readName(html, open + 2);
      yield { type: 'end', name };
      i = skipPast(html, '>', next);
    } else if (isLetter(html[open + 1])) {
      const { tag, next } = readStartTag(html, open + 1);
      yield tag;
      i = next;
      if (RAW_TEXT.has(tag.name)) {
        // Their content is text up to their own end tag, never markup.
        const close = indexOfIgnoringCase(html, `</${tag.name}`, i);
        const end = close < 0 ? html.length : close;
        if (tag.name !== 'script' && tag.name !== 'style') yield text(html.slice(i, end));
        i = end;
      }
    } else {
      yield text('<');
      i = open + 1;
    }
  }
}

function readStartTag(html: string, from: number): { tag: StartTag; next: number } {
  const { name, next } = readName(html, from);
  const attributes = new Map<string, string>();
  let i = next;
  for (;;) {
    while (i < html.length && (isSpace(html[i]) || html[i] === '/')) i++;
    if (i >= html.length) break;
    if (html[i] === '>') {
      i++;
      break;
    }
    let j = i;
    while (j < html.length && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>' && html[j] !== '=') j++;
    if (j === i) j++; // a stray character such as a lone quote: step over it
    const attribute = html.slice(i, j).toLowerCase();
    i = j;
    while (i < html.length && isSpace(html[i])) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < html.length && isSpace(html[i])) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        const end = close < 0 ? html.length : close;
        value = html.slice(i + 1, end);
        i = end + 1;
      } else {
        let k = i;
        while (k < html.length && !isSpace(html[k]) && html[k] !== '>') k++;
        value = html.slice(i, k);
        i = k;
      }
    }
    if (!attributes.has(attribute)) attributes.set(attribute, decodeEntities(value));
  }
  return { tag: { type: 'start', name, attributes }, next: i };
}

function readName(html: string, from: number): { name: string; next: number } {
  let i = from;
  while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i++;
  return { name: html.slice(from, i).toLowerCase(), next: i };
}

function text(raw: string): Text {
  return { type: 'text', text: decodeEntities(raw) };
}

function skipPast(html: string, marker: string, from: number): number {
  const at = html.indexOf(marker, from);
  return at < 0 ? html.length : at + marker.length;
}

function indexOfIgnoringCase(html: string, needle: string, from: number): number {
  // A sticky-free global search from `from`; lower-casing the page could shift indices.
  const pattern = new RegExp(needle, 'gi');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? -1;
}

function isSpace(character: string | undefined): boolean {
  return character === ' ' || character === '\n' || character === '\t' || character === '\r' || character === '\f';
}

function isLetter(character: string | undefined): boolean {
  return character !== undefined && /[a-zA-Z]/.test(character);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes numeric references and the few named ones ASP.NET writes; leaves unknown ones as they are. */
export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, (whole, body: string) => {
    if (body[0] !== '#') return NAMED[body] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

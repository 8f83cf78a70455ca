/**
 * The one rule for a name that enters the catalog, whether from an official file (the reader
 * checks every row's names) or from an operator's corrections file (checked as it is read,
 * each problem with its line): names reach every answer, the MCP tools' text and terminals, so
 * a name holding a control character (ESC, BEL, NUL, ...), an invisible format character
 * (bidi overrides, zero-width spaces, ...) or a line separator is refused, never cleaned
 * silently; so is a name with no letter or digit at all (one made only of zero-width spaces).
 * The official catalog has none of these.
 *
 * An operator's note (`nota`) is free text but bounded: at most MAX_NOTE_CHARS characters,
 * none of them control or format characters.
 */

/** Characters no name or note may hold: controls (C0, C1, DEL), format characters (bidi, zero-width), surrogates, private use, unassigned, line and paragraph separators. */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The longest `nota` of a correction (an operator's reason, a ticket: a sentence or two). */
export const MAX_NOTE_CHARS = 500;

/** A forbidden character, in words: `a control character (U+001B)`. */
function described(text: string): string | undefined {
  const found = FORBIDDEN.exec(text)?.[0];
  if (found === undefined) return undefined;
  const point = `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const kind = /\p{Cc}/u.test(found) ? 'a control character' : /\p{Cf}/u.test(found) ? 'an invisible format character' : 'a character no name may hold';
  return `${kind} (${point})`;
}

/** Why `name` cannot be a name in the catalog (a settlement, a type, a municipality, a state, a city), or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  const bad = described(name);
  if (bad) return `holds ${bad}; names may not`;
  if (!LETTER_OR_DIGIT.test(name)) return 'has no letter or digit';
  return undefined;
}

/** Why `note` cannot be a correction's `nota`, or undefined when it can. */
export function noteProblem(note: string): string | undefined {
  if (note.length > MAX_NOTE_CHARS) return `is ${note.length} characters long, more than a note may be (${MAX_NOTE_CHARS})`;
  const bad = described(note);
  return bad ? `holds ${bad}; notes may not` : undefined;
}

/** `text` safe to print in a message: each forbidden character written as its code point (`<U+202E>`), the whole clipped to 60 characters. */
export function shown(text: string): string {
  const safe = text.replace(new RegExp(FORBIDDEN.source, 'gu'), (found) => `<U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`);
  return safe.length > 60 ? `${safe.slice(0, 57)}...` : safe;
}

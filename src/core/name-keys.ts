/**
 * Comparison keys for names as people write them, read with the tables of `name-forms.ts`:
 * a state's INEGI key from any of its forms, and for municipality, city and settlement names
 * a key of folded words with shortened words written out (`Gral.` → general), ordinals and
 * roman numerals made numbers (`1ra.`, `Primera`, `I` → 1) and letters run together
 * (`U.H.` → unidad habitacional). Two spellings of one name get one key; the catalog's own
 * names are keyed the same way, so a key is only ever compared with another key.
 * The tables' indexes are built on first use: loading and the lookups never touch them.
 */
import { CARDINAL_WORDS, MUNICIPALITY_TITLES, ORDINAL_ENDINGS, ORDINAL_WORDS, STATE_ALIASES, STATE_FORMS, STATE_PREFIXES, STATE_SUFFIXES, WORD_FORMS } from './name-forms.js';
import { foldForMatch, foldStateName } from './fold.js';
import { lazyPattern } from './lazy-pattern.js';
import { ownCopy } from './own-copy.js';

/** The words of a name, folded and read, each with where its last source character ends in the text. */
export interface NameWords {
  readonly words: string[];
  /** `ends[i]`: the offset in the text just past what word `i` was read from. */
  readonly ends: number[];
}

const word = /* @__PURE__ */ lazyPattern('[\\p{L}\\p{N}]+', 'gu');
const oneLetterOrDigit = /* @__PURE__ */ lazyPattern('^[\\p{L}\\p{N}]$', 'u');
let numberedOrdinal: RegExp | undefined;
const ROMAN_VALUES: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50 };

/** Reads `text` into its words: folded, letters run together joined, shortened words written out, ordinals as numbers. */
export function nameWords(text: string): NameWords {
  const raw: string[] = [];
  const rawEnds: number[] = [];
  tokens(text, raw, rawEnds);
  const words: string[] = [];
  const ends: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    let word = raw[i]!;
    let end = rawEnds[i]!;
    if (isLetter(word)) {
      // Single letters in a row are one word written with dots: `U.H.`, `C.T.M.`; a run that is
      // a type's letters ends at a space (`U.H. A.S.A.` is unidad habitacional *A.S.A.*).
      let j = i + 1;
      while (j < raw.length && isLetter(raw[j]!) && !(word.length > 1 && Object.hasOwn(WORD_FORMS, word) && spaceAfter(text, rawEnds[j - 1]!))) word += raw[j++]!;
      if (j > i + 1) {
        end = rawEnds[j - 1]!;
        i = j - 1;
      }
    } else if (word === 'ex' && i + 1 < raw.length && !/^\d/.test(raw[i + 1]!)) {
      // `Ex-Hacienda`, `Ex Hacienda`, `Exhacienda` are one word.
      word += raw[++i]!;
      end = rawEnds[i]!;
    }
    const read = readWord(word);
    if (typeof read === 'string') {
      words.push(read);
      ends.push(end);
    } else {
      for (const one of read) {
        words.push(one);
        ends.push(end);
      }
    }
  }
  return { words, ends };
}

/** Whether a space follows the token that ends at `end` (after its dot, if any). */
function spaceAfter(text: string, end: number): boolean {
  const next = text.charCodeAt(end) === 0x2e ? end + 1 : end;
  return next < text.length && (text.charCodeAt(next) === 0x20 || text.charCodeAt(next) === 0x09);
}

/**
 * The runs of letters and digits of `text`, each folded (`foldToken`), with where each ends.
 * Latin-1 text (all of the catalog, most of what people type) is scanned through a table of
 * each character's fold; anything wider takes the regular expression. Both agree.
 */
function tokens(text: string, raw: string[], rawEnds: number[]): void {
  const table = wordTable();
  let token = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) {
      raw.length = rawEnds.length = 0;
      for (const match of text.matchAll(word())) {
        raw.push(foldToken(match[0]));
        rawEnds.push(match.index + match[0].length);
      }
      return;
    }
    const folded = table[c]!;
    if (folded) token += folded;
    else if (token) {
      raw.push(token);
      rawEnds.push(i);
      token = '';
    }
  }
  if (token) {
    raw.push(token);
    rawEnds.push(text.length);
  }
}

let latin1Word: readonly string[] | undefined;

/** `foldToken` of each Latin-1 character alone, '' for one between words: made by running them, on first use. */
function wordTable(): readonly string[] {
  return (latin1Word ??= Array.from({ length: 0x100 }, (_, c) => {
    const char = String.fromCharCode(c);
    return oneLetterOrDigit().test(char) ? foldToken(char) : '';
  }));
}

/** One token folded: case and accents dropped; `º` and `ª` as the letters they stand for. */
function foldToken(token: string): string {
  const folded = foldStateName(token);
  return folded.includes('º') || folded.includes('ª') ? folded.replaceAll('º', 'o').replaceAll('ª', 'a') : folded;
}

function isLetter(word: string): boolean {
  return word.length === 1 && word >= 'a' && word <= 'z';
}

/**
 * Every word the tables write otherwise, folded, to what the key holds: a shortened word's full
 * word (two words for `uh`), an ordinal word's number. A Map made on first use: a word such as
 * `constructor` must not find Object's.
 */
let wordReadings: Map<string, string | readonly string[]> | undefined;

function readings(): Map<string, string | readonly string[]> {
  if (!wordReadings) {
    wordReadings = new Map();
    for (const [word, full] of Object.entries(WORD_FORMS)) wordReadings.set(word, full.includes(' ') ? full.split(' ') : full);
    for (const [word, number] of Object.entries(ORDINAL_WORDS)) wordReadings.set(word, String(number));
  }
  return wordReadings;
}

/** The full word(s) of a shortened folded word (`gral` → `general`), or undefined. */
export function wordForm(word: string): string | undefined {
  return Object.hasOwn(WORD_FORMS, word) ? WORD_FORMS[word] : undefined;
}

/** A folded word as the key holds it (one word, or the words it is short for): written out, or a number for an ordinal or roman numeral. */
function readWord(word: string): string | readonly string[] {
  const read = readings().get(word);
  if (read !== undefined) return read;
  const first = word.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) {
    // Only words that start with a digit can be numbers or written ordinals (`1a`, `03`).
    if (/^\d+$/.test(word)) return String(Number(word));
    const numbered = (numberedOrdinal ??= new RegExp(`^(\\d{1,3})(?:${ORDINAL_ENDINGS.join('|')})$`)).exec(word);
    return numbered ? String(Number(numbered[1])) : word;
  }
  // Only words of the letters i, v, x, l can be roman numerals.
  if ((first === 0x69 || first === 0x76 || first === 0x78 || first === 0x6c) && ROMAN.test(word)) return String(romanValue(word));
  return word;
}

/** A well-formed roman numeral of i, v, x, l (1 to 89). */
const ROMAN = /^(?=[ivxl])(l?x{0,3}|xl)(ix|iv|v?i{0,3})$/;

/** The value of a folded word that is a roman numeral (`xiv` → 14), else undefined. */
export function romanNumeral(word: string): number | undefined {
  return ROMAN.test(word) ? romanValue(word) : undefined;
}

/** The value of a roman numeral that `ROMAN` accepts. */
function romanValue(word: string): number {
  let value = 0;
  for (let i = 0; i < word.length; i++) {
    const here = ROMAN_VALUES[word[i]!]!;
    const next = i + 1 < word.length ? ROMAN_VALUES[word[i + 1]!]! : 0;
    value += here < next ? -here : here;
  }
  return value;
}

/** A name left of one word, once words are set aside in front of it, is at least this long (`Lucas` is no San Lucas, `Maya` no Santa Ana Maya). */
export const MIN_ONE_WORD = 5;

/** The words that join a place's name (`de`, `la`, `y`, ...): what is left after one of them is no name of its own. */
export const CONNECTORS: ReadonlySet<string> = new Set(['de', 'del', 'la', 'las', 'los', 'el', 'y']);

/**
 * A key without its joining words: *Santa Cruz Juventino Rosas* is the city of *Santa Cruz de
 * Juventino Rosas*, `Granjas San Antonio` the settlement *Granjas de San Antonio*, `La
 * Primavera` *Primavera*.
 */
export function withoutConnectors(key: string): string {
  // Most keys hold none (the settlement index asks for every one): tested before any split.
  if (!connector().test(key)) return key;
  return key
    .split(' ')
    .filter((word) => !CONNECTORS.has(word))
    .join(' ');
}

/** A joining word of `CONNECTORS` in a key (words between single spaces). */
const connector = /* @__PURE__ */ lazyPattern(`(?:^| )(?:${[...CONNECTORS].join('|')})(?= |$)`, '');

/**
 * The comparison key of a name: its words read as `nameWords` reads them, joined by spaces.
 * `Sta. María 1a. Secc.` and `Santa Maria Primera Sección` have one key.
 */
export function nameKey(text: string): string {
  return nameWords(text).words.join(' ');
}

/**
 * The comparison key of a settlement name (and of the places its names are compared with):
 * folded, shortened words written out (`Sta.` → santa, `Secc.` → seccion, `Gral.` → general),
 * ordinals and roman numerals as numbers (`1a.`, `1ra.`, `Primera`, `I` → 1), `nameKey`'s
 * words as `settlementWords` reads them. Two spellings of one name get one key: `Tres Caminos`
 * and `3 Caminos`, `Las Puentes 8vo. Sector` and `Las Puentes Sector 8`.
 */
export function settlementKey(text: string): string {
  return settlementWords(nameWords(text).words).join(' ');
}

let cardinals: Map<string, string> | undefined;

/**
 * A settlement name's words (`nameWords`', changed in place) as its key holds them: numbers
 * written as words as numbers (`CARDINAL_WORDS`), and a section's number before its word
 * (`8vo. Sector`, `1a. Sección`) in the order the catalog mostly writes, the word first. A word
 * with its number after it already is left, and so is a number that follows one (*Chihuahua
 * 2000 I Etapa* keys `chihuahua 2000 etapa 1`, *El Retiro 3ra Etapa Sector Istmo* `el retiro
 * etapa 3 sector istmo`, each read as itself again: a key read again is the same key). Apart
 * from `nameWords`, which state and municipality names are read by, so that what only
 * settlements need stays out of bundles that read no settlement (the browser's cpmx/web).
 */
export function settlementWords(words: string[]): string[] {
  cardinals ??= new Map(CARDINAL_WORDS.split(' ').map((word, i) => [word, String(i + 1)]));
  for (let i = 0; i < words.length; i++) words[i] = cardinals.get(words[i]!) ?? words[i]!;
  for (let i = 0; i + 1 < words.length; i++) {
    if (SECTION_WORDS.has(words[i + 1]!) && isDigit(words[i]!.charCodeAt(0)) && !(i + 2 < words.length && isDigit(words[i + 2]!.charCodeAt(0))) && !(i > 0 && SECTION_WORDS.has(words[i - 1]!))) {
      const number = words[i]!;
      words[i] = words[i + 1]!;
      words[++i] = number;
    }
  }
  return words;
}

/** The words of a settlement's section, as keys hold them. */
const SECTION_WORDS: ReadonlySet<string> = new Set(['seccion', 'sector', 'etapa']);

/** Whether a key's word names a section (`seccion`, `sector`, `etapa`). */
export function isSectionWord(word: string): boolean {
  return SECTION_WORDS.has(word);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Forms of a table by their first word, each list longest first, with what each form names. */
export type FormIndex<T> = ReadonlyMap<string, readonly { readonly words: readonly string[]; readonly value: T }[]>;

/** Indexes forms (each as `nameWords` reads it) by their first word. */
export function formIndex<T>(forms: Iterable<readonly [form: string, value: T]>): FormIndex<T> {
  const index = new Map<string, { words: string[]; value: T }[]>();
  for (const [form, value] of forms) {
    const { words } = nameWords(form);
    if (!words.length) continue;
    const same = index.get(words[0]!);
    if (same) same.push({ words, value });
    else index.set(words[0]!, [{ words, value }]);
  }
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length);
  return index;
}

/** The longest form of `index` that the leading words of `words` are, leaving at least one word; undefined when none. */
export function leadingIn<T>(words: readonly string[], index: FormIndex<T>): { length: number; value: T } | undefined {
  const candidates = words.length > 1 ? index.get(words[0]!) : undefined;
  if (!candidates) return undefined;
  for (const { words: form, value } of candidates) {
    if (form.length >= words.length) continue;
    let same = true;
    for (let i = 1; i < form.length && same; i++) same = words[i] === form[i];
    if (same) return { length: form.length, value };
  }
  return undefined;
}

let titleWords: FormIndex<true> | undefined;

/**
 * The keys a written municipality (or city) name may stand for, most literal first: as
 * written; without a title (`Alc.`, `Mpio. de`, `Delegación`); without `Ciudad`/`Cd.` in front
 * (`Cd. Victoria` is the municipality Victoria).
 */
export function municipalityKeys(text: string): string[] {
  const { words } = nameWords(text);
  const keys = [words.join(' ')];
  const titled = leadingIn(words, (titleWords ??= formIndex(MUNICIPALITY_TITLES.map((title) => [title, true] as const))))?.length ?? 0;
  const rest = words.slice(titled);
  if (titled) keys.push(rest.join(' '));
  if (rest.length > 1 && rest[0] === 'ciudad') keys.push(rest.slice(1).join(' '));
  return keys;
}

/** Whether a written municipality or city name is the catalog's `catalogName` under some reading. */
export function sameMunicipality(text: string, catalogName: string): boolean {
  const target = nameKey(catalogName);
  return target !== '' && municipalityKeys(text).includes(target);
}

interface StateReading {
  byCompact: Map<string, number>;
  /** The compact forms of the listed abbreviations and codes (not of the names). */
  listed: Set<string>;
  prefixes: string[];
  suffixes: string[];
  seen: Map<string, number>;
}

let stateReading: StateReading | undefined;
const SEEN_LIMIT = 4096;

/** A name with dots, spaces, hyphens and other punctuation removed, folded: `N. L.` → `nl`. */
export function compact(text: string): string {
  return foldForMatch(text).replaceAll(' ', '');
}

function readingOfStates(): StateReading {
  if (!stateReading) {
    const byCompact = new Map<string, number>();
    const listed = new Set<string>();
    for (const state of STATE_FORMS) {
      for (const name of [state.name, ...(Object.hasOwn(STATE_ALIASES, state.name) ? STATE_ALIASES[state.name]! : [])]) byCompact.set(compact(name), state.key);
      for (const form of [state.iso, `MX-${state.iso}`, ...state.forms]) {
        byCompact.set(compact(form), state.key);
        listed.add(compact(form));
      }
    }
    const byLength = (a: string, b: string) => b.length - a.length;
    stateReading = {
      byCompact,
      listed,
      prefixes: STATE_PREFIXES.map(compact).sort(byLength),
      suffixes: STATE_SUFFIXES.map(compact).sort(byLength),
      seen: new Map(),
    };
  }
  return stateReading;
}

/**
 * The INEGI key (`c_estado`, 1 to 32) of the state `text` names in any of the forms of
 * `STATE_FORMS` (name, abbreviation, ISO 3166-2 code with or without `MX-`, one- or two-digit
 * key, `Estado de`/`Edo.` in front, `, México` after), or -1. Needs no catalog.
 */
export function stateKeyOf(text: string): number {
  const reading = readingOfStates();
  let key = reading.seen.get(text);
  if (key === undefined) {
    key = readStateKey(reading, text);
    if (reading.seen.size < SEEN_LIMIT && text.length <= 64) reading.seen.set(ownCopy(text), key);
  }
  return key;
}

function readStateKey(reading: StateReading, text: string): number {
  const trimmed = text.trim();
  if (/^\d{1,2}$/.test(trimmed)) {
    const key = Number(trimmed);
    return key >= 1 && key <= STATE_FORMS.length ? key : -1;
  }
  const whole = compact(trimmed);
  if (!whole) return -1;
  const direct = reading.byCompact.get(whole);
  if (direct !== undefined) return direct;
  for (const suffix of ['', ...reading.suffixes]) {
    if (suffix && !(whole.endsWith(suffix) && whole.length > suffix.length)) continue;
    const body = whole.slice(0, whole.length - suffix.length);
    const found = reading.byCompact.get(body);
    if (found !== undefined) return found;
    for (const prefix of reading.prefixes) {
      if (!body.startsWith(prefix) || body.length === prefix.length) continue;
      const named = reading.byCompact.get(body.slice(prefix.length));
      if (named !== undefined) return named;
    }
  }
  return -1;
}

/**
 * Whether `text` is one of the listed state forms (`STATE_FORMS`' abbreviations and codes, in
 * any spacing and punctuation), as opposed to a state's name respaced (`Quintana+Roo`).
 */
export function isListedStateForm(text: string): boolean {
  return readingOfStates().listed.has(compact(text));
}

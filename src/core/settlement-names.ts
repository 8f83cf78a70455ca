/**
 * Settlements as people write them: a type in front (`Col.`, `FRACC`, `U.H.`, `Bo.`) set
 * aside, shortened words inside the name read (`Sta.`, `1a. Secc.`), and which of a code's
 * settlements a written one names, answered in the catalog's spelling. The type is not judged:
 * `Fracc. Las Palmas` names the catalog's `Las Palmas` whatever its type, except for types that
 * distinguish a place (`Amp. Granada` is not `Granada`; see `DISTINGUISHING_TYPES`).
 */
import type { CatalogReader } from './catalog-reader.js';
import { ownCopy } from './own-copy.js';
import { DISTINGUISHING_TYPES, MUNICIPALITY_LEADING_SAINTS, SETTLEMENT_LANDMARKS, SETTLEMENT_TYPE_FORMS } from './name-forms.js';
import { formIndex, isSectionWord, leadingIn, MIN_ONE_WORD, nameWords, settlementKey, settlementWords, withoutConnectors, type FormIndex } from './name-keys.js';
import { afterDe, isDowntownKey, isTownSeat, looseFrontless, looseSectionless, namesTownSeat, otherKeys, withoutPlaceAfter, writtenDowntownKey } from './settlement-other-keys.js';

let typeForms: FormIndex<string> | undefined;

/** The type written in front of a name's words (its form's length and the catalog type), or undefined. */
function leadingType(words: readonly string[]): { length: number; value: string } | undefined {
  typeForms ??= formIndex(Object.entries(SETTLEMENT_TYPE_FORMS).flatMap(([type, written]) => [type, ...written].map((form) => [form, type] as const)));
  return leadingIn(words, typeForms);
}

/** What separates a type from its name as written (`Col. Centro`, `Fracc.-Las Palmas`, `JALALPA, AMPL.`). */
const TYPE_SEPARATOR = /^[\s.,;:\-\u2013\u2014/]+/u;

/** A settlement's type as written in front of its name, and the name after it (as written). */
export interface SplitSettlement {
  /** The catalog's `tipo_asentamiento` the leading word names, or null when there is none. */
  type: string | null;
  /** The rest of the text (the whole text when no type leads it), trimmed. */
  name: string;
}

/**
 * Sets aside a settlement type written in front of a name, in any of its usual forms
 * (`Col. Granjas Esmeralda` → Colonia, `Granjas Esmeralda`; `U.H. Vicente Guerrero` → Unidad
 * habitacional). A type with nothing after it is the name itself (`Colonia` is a settlement).
 */
export function splitSettlementType(text: string): SplitSettlement {
  const { words, ends } = nameWords(text);
  const leading = leadingType(words);
  if (!leading) return { type: null, name: text.trim() };
  return { type: leading.value, name: text.slice(ends[leading.length - 1]).replace(TYPE_SEPARATOR, '').trim() };
}

/** Whether `text` is a settlement's type shortened and nothing more (`Col.`, `Col. .`, `Fracc.`): a form's field left empty. */
export function isTypeAlone(text: string): boolean {
  if (!text.includes('.')) return false;
  const { words } = nameWords(text);
  return words.length > 0 && leadingType([...words, ''])?.length === words.length;
}

/**
 * A name written with its type after it, as street-market lists and page footers write them
 * (`JALALPA AMPL.`, `MOLINO DE SANTO DOMINGO UH`, `Santa Bárbara Residencial`): the text with
 * that type moved in front (`AMPL. JALALPA`), read as any name typed in front; undefined when no
 * type ends a name of words before it. Read only where no settlement has the name as written.
 */
export function typeMovedFront(text: string): string | undefined {
  const { words, ends } = nameWords(text);
  for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
    // A word after the tail, as a type in front has a name after it.
    if (leadingType([...words.slice(words.length - k), ''])?.length !== k) continue;
    const cut = ends[words.length - k - 1]!;
    const type = text.slice(cut).replace(TYPE_SEPARATOR, '').trim();
    return `${type} ${text.slice(0, cut).trim()}`;
  }
  return undefined;
}

export { settlementKey } from './name-keys.js';

// Marked pure, so that a bundle that never matches settlement names this way (the library's) drops it.
const distinguishing = /* @__PURE__ */ new Set(DISTINGUISHING_TYPES);

/**
 * Whether a type written in front of a name may be set aside before a settlement the catalog
 * types `catalogType` (undefined when unknown): any type, but one that names another place
 * (`Ampliación`: `Amp. Granada` is never *Granada*) only before a settlement of that very type.
 * The one rule of the settlement matcher and of codes from names (parse/places).
 */
export function mayDropType(written: string | null, catalogType: string | undefined): boolean {
  return !written || !distinguishing.has(written) || catalogType === written;
}
/**
 * First words that make a place of a name (`shortened`): *Nueva Santa María* is not a *Santa
 * María*, nor *San Ángel Inn* an *Ángel Inn*. Made at first use: this module is in bundles that
 * only split a type off.
 */
let notLeftOut: ReadonlySet<string> | undefined;

/**
 * Whether a catalog name may be read by its last words (`shortened`): not when what is left out
 * tells a place from another (a type, *Ampliación San Manuel*, *Ex-Hacienda San Lorenzo*;
 * `Nueva`, a saint), nor a name with a part in parentheses, which names nothing alone.
 */
function mayLeaveOutFront(key: Keyed, name: string): boolean {
  const loose = key.loose!;
  notLeftOut ??= new Set(['nueva', 'nuevo', 'ex', 'prolongacion', 'santisima', ...MUNICIPALITY_LEADING_SAINTS]);
  return key.type === null && !notLeftOut.has(loose.slice(0, loose.indexOf(' '))) && !name.includes('(') && !name.includes('[');
}

/**
 * Whether written words may be a name's last ones: two words or more that name (three letters
 * or more, not a number or a section), the first among them (not *Herradura Sección II*,
 * *Vista II* of *Buena Vista II*, *C. Doria* of *Juan C. Doria*).
 */
function mayEndName(words: string): boolean {
  const naming = words.split(' ').map((word) => word.length >= 3 && /^[a-z]/.test(word) && !isSectionWord(word));
  return naming[0] === true && naming.filter(Boolean).length >= 2;
}

/** Whether every written word names: three letters or more, not a number or a section. */
function namesEveryWord(words: string): boolean {
  return words.split(' ').every((word) => word.length >= 3 && /^[a-z]/.test(word) && !isSectionWord(word));
}

/** Whether a name is the written words with words left out between two of them: its first words and its last are the written ones. */
function keepsEnds(name: string, written: string): boolean {
  if (name.length <= written.length + 1) return false;
  const own = name.split(' ');
  const words = written.split(' ');
  if (own.length <= words.length) return false;
  for (let j = 1; j < words.length; j++) {
    let keeps = true;
    for (let k = 0; k < words.length && keeps; k++) keeps = own[k < j ? k : own.length - words.length + k] === words[k];
    if (keeps) return true;
  }
  return false;
}

interface Keyed {
  /** The key of the name as written. */
  whole: string;
  /** The catalog's name's other keys (`otherKeys`), for a name the code has under no key of its own. */
  others?: readonly string[];
  /** The key of the name with its leading type set aside; '' when none. */
  rest: string;
  /** The type set aside, or null. */
  type: string | null;
  /** The key without its joining words (`withoutConnectors`), for a catalog name, once asked. */
  loose?: string;
  /** The same without the name's section (`looseSectionless`), '' for a name without one, once asked. */
  looseSectionless?: string;
  /** The same without what people leave out in front (`looseFrontless`), '' for a name without it, once asked. */
  looseFrontless?: string;
  /** `loose` without its spaces (`togetherOrApart`), for a catalog name, once asked. */
  looseLetters?: string;
  /** For a written name: its key as a place is named by it (`writtenKey`) without a title in front and joining words (`looseFrontless`), '' for a name with none, once asked. */
  withoutTitle?: string;
}

/** A name's keys, read once: the words after a leading type are the rest's key. */
function keyed(text: string): Keyed {
  const words = settlementWords(nameWords(text).words);
  const leading = leadingType(words);
  return { whole: words.join(' '), rest: leading ? words.slice(leading.length).join(' ') : '', type: leading ? leading.value : null };
}

/**
 * Finds which of a list of settlements (a code's) a written settlement names. Keys of the
 * catalog's names are made once, when the first name that is not written as the catalog
 * writes it is asked.
 */
export class SettlementMatcher {
  private keys: Keyed[] | undefined;

  /**
   * @param names the settlements' names as the catalog writes them
   * @param types their `tipo_asentamiento`, in the same order, when known: without them, a
   *   distinguishing type in front (`Amp.`) is never set aside
   */
  constructor(
    readonly names: readonly string[],
    readonly types?: readonly string[],
    /** The code's municipality and city, as the catalog writes them: a name that starts with either is also read without it. */
    readonly places?: readonly [municipio: string, ciudad: string],
  ) {}

  /**
   * The text last read and its keys: a name read by `indexOf` is often read again by
   * `looseIndexOf`. Kept as its own copy, keys made from it: a text cut from an input holds the
   * whole input in memory (a matcher is kept per code, each would hold a range of the file).
   */
  private last: { text: string; keyed: Keyed } | undefined;

  private keyedText(text: string): Keyed {
    if (this.last?.text !== text) {
      const own = ownCopy(text);
      this.last = { text: own, keyed: keyed(own) };
    }
    return this.last.keyed;
  }

  /** The keys of the code's municipality and city ('' for none), made with the names' keys. */
  private placeKeys: readonly [municipality: string, city: string] = ['', ''];

  private catalogKeys(): Keyed[] {
    if (!this.keys) {
      const [municipio, ciudad] = this.places ?? ['', ''];
      const municipalityKey = municipio ? settlementKey(municipio) : '';
      const cityKey = ciudad ? settlementKey(ciudad) : '';
      this.placeKeys = [municipalityKey, cityKey];
      this.keys = this.names.map((name) => {
        const key = keyed(name);
        key.others = otherKeys(name, key.whole, municipalityKey, cityKey);
        return key;
      });
    }
    return this.keys;
  }

  /**
   * The index in `names` of the settlement whose own name `text` is (its key, not another key
   * of it: `Nueva Mina` is no own name of *Nueva Mina Sur*), or -1.
   */
  ownNameIndexOf(text: string): number {
    const exact = this.names.indexOf(text);
    if (exact >= 0) return exact;
    const given = this.keyedText(text);
    return given.whole ? this.catalogKeys().findIndex((key) => key.whole === given.whole) : -1;
  }

  /** The index in `names` of the settlement `text` names, or -1. */
  indexOf(text: string): number {
    const exact = this.names.indexOf(text);
    if (exact >= 0) return exact;
    const given = this.keyedText(text);
    if (!given.whole) return -1;
    const found = this.readIndexOf(given);
    if (found >= 0) return found;
    const landmark = this.beforeLandmark(given.whole);
    if (landmark >= 0 || given.type) return landmark;
    // Its type written after it (`Jalalpa Ampl.`): read as if in front.
    const moved = typeMovedFront(text);
    return moved ? this.readIndexOf(keyed(moved)) : -1;
  }

  /** The index of the settlement a written name's keys name: as written, after two types in front, or without the code's place after it; -1 when none. */
  private readIndexOf(given: Keyed): number {
    const found = this.keyIndexOf(given);
    if (found >= 0) return found;
    // Two types in front (`COL. FRACCIONAMIENTO JARDINES DEL RINCÓN`, as INE writes its offices'): the name after the second.
    const inner = given.rest ? keyed(given.rest) : undefined;
    const twice = inner?.rest ? this.keyIndexOf(inner) : -1;
    if (twice >= 0) return twice;
    // The code's municipality or city written after the name (`Fuentes del Valle Tultitlán`), as records glue them.
    const bare = this.withoutPlaceAfter(given.whole);
    return bare ? this.keyIndexOf(keyed(bare)) : -1;
  }

  /**
   * The settlement named by the words before a building or shopping centre written after the
   * name (`Los Laureles Plaza Las Palomas`, `5 de Mayo Plaza San Juan Local Comercial`:
   * `SETTLEMENT_LANDMARKS`), the most words first; -1 when none names one. Tried last, so a
   * name of the code that holds such a word (*Villas de la Plaza*) is read as itself first.
   */
  private beforeLandmark(key: string): number {
    const cuts: number[] = [];
    for (const landmark of SETTLEMENT_LANDMARKS) {
      for (let at = key.indexOf(` ${landmark}`, 1); at > 0; at = key.indexOf(` ${landmark}`, at + 1)) {
        const after = at + landmark.length + 1;
        if (after === key.length || key.charCodeAt(after) === 0x20) cuts.push(at);
      }
    }
    cuts.sort((a, b) => b - a);
    for (const cut of cuts) {
      const found = this.readIndexOf(keyed(key.slice(0, cut)));
      if (found >= 0) return found;
    }
    return -1;
  }

  /** A key without the code's municipality or city at its end (`fuentes del valle tultitlan` in Tultitlán), or undefined. */
  private withoutPlaceAfter(key: string): string | undefined {
    this.catalogKeys();
    const [municipalityKey, cityKey] = this.placeKeys;
    return withoutPlaceAfter(key, municipalityKey) ?? withoutPlaceAfter(key, cityKey);
  }

  /** The index of the settlement a written name's keys name, or -1. */
  private keyIndexOf(given: Keyed): number {
    const keys = this.catalogKeys();
    // Most literal first: the name as written; a type written in front of the catalog's
    // name; the catalog's name holding a type the text leaves out; both typed.
    let found = keys.findIndex((key) => key.whole === given.whole);
    if (found < 0 && given.rest) found = this.preferType(given.type, (key, i) => key.whole === given.rest && this.mayDrop(given.type, i));
    if (found < 0) found = keys.findIndex((key) => key.rest !== '' && key.rest === given.whole && !distinguishing.has(key.type!));
    if (found < 0 && given.rest) {
      found = this.preferType(given.type, (key, i) => key.rest === given.rest && (key.type === given.type || (this.mayDrop(given.type, i) && !distinguishing.has(key.type!))));
    }
    // The type written with `de` after it (`Barrio de San Martín`).
    const after = found < 0 && given.rest ? afterDe(given.rest) : undefined;
    if (after) found = this.preferType(given.type, (key, i) => (key.whole === after || (key.rest === after && !distinguishing.has(key.type!))) && this.mayDrop(given.type, i));
    // Last, the catalog's name by its other keys (`Monterrey Centro`, `Centro (Área 1)` for `Centro`, `Col. Centro`).
    if (found < 0) found = keys.findIndex((key) => key.others!.includes(given.whole));
    if (found < 0 && given.rest) found = this.preferType(given.type, (key, i) => key.others!.includes(given.rest) && this.mayDrop(given.type, i));
    // A downtown written as people write it (`Zona Centro`, `Centro Histórico`): the code's Centro, by its name or another.
    const written = this.writtenKey(given);
    const downtown = found < 0 ? writtenDowntownKey(written, ...this.placeKeys) : undefined;
    if (downtown) found = keys.findIndex((key) => key.whole === downtown || key.others!.includes(downtown));
    return found < 0 ? this.townBy(written) : found;
  }

  /**
   * The code's town itself (`isTownSeat`), when a written key names it: as a downtown where no
   * settlement of the code is one (`Col. Centro` for *Perote*, Pueblo), or by its place's name
   * or its own without its surname (`Tepetlaoxtoc` for *Tepetlaoxtoc de Hidalgo*); else -1.
   */
  private townBy(written: string): number {
    const seat = this.townSeat();
    if (seat < 0) return -1;
    const [municipalityKey, cityKey] = this.placeKeys;
    return isDowntownKey(written, municipalityKey, cityKey) || namesTownSeat(written, this.catalogKeys()[seat]!.whole, municipalityKey, cityKey) ? seat : -1;
  }

  /** The index of the code's town itself when `text` names it as `townBy` reads it, else -1 (asked by codes from names for a municipality's towns, parse/places). */
  townNamed(text: string): number {
    return this.townBy(this.writtenKey(this.keyedText(text)));
  }

  /** A written name's key as a place is named by it: without its type in front, unless the type distinguishes a place (`Ampliación`). */
  private writtenKey(given: Keyed): string {
    return given.rest && this.mayDrop(given.type, -1) ? given.rest : given.whole;
  }

  /**
   * The one settlement whose key without joining words (`de`, `la`, `los`, ...) is the written
   * name's, with or without its type (`Granjas San Antonio` is *Granjas de San Antonio*, `La
   * Primavera` *Primavera*, `Col. Volcanes` *Los Volcanes*), else the one the written name is
   * without its section (`Lomas de Chapultepec` where the code has only *Lomas de Chapultepec
   * I Sección*) or without a title or `Unidad` in front (`Ignacio Zaragoza` for *General
   * Ignacio Zaragoza*), or with a title in front that the catalog's name has not (`Dr.
   * Norberto Treviño Zapata`), or with its words run together or split otherwise
   * (`Montealban` for *Monte Alban*); -1 when none is, or several are.
   * Not one of `indexOf`'s readings: such a name may be another settlement of the place
   * (*Providencia* and *La Providencia* are two codes of Azcapotzalco), which only a caller
   * that sees the place's other codes can rule out.
   */
  looseIndexOf(text: string): number {
    const { whole, sections } = this.looseMatches(text);
    return whole.length === 1 ? whole[0]! : whole.length === 0 && sections.length === 1 ? sections[0]! : -1;
  }

  /** Whether the written name is one settlement of the code read as `looseIndexOf` reads, or its name without the section of one or more (`Escandón` for *Escandón I Sección* and *Escandón II Sección*). */
  namesLoosely(text: string): boolean {
    const { whole, sections } = this.looseMatches(text);
    return whole.length === 1 || (whole.length === 0 && sections.length > 0);
  }

  /**
   * The settlements (one per name, twins being one) whose key without joining words is the
   * written name's (`whole`), and those whose key without its section, or what people leave
   * out in front of it, and joining words is (`sections`), in one pass over the code's names.
   */
  private looseMatches(text: string): { whole: number[]; sections: number[] } {
    const given = this.keyedText(text);
    const written = withoutConnectors(given.whole);
    const rest = given.rest ? withoutConnectors(given.rest) : '';
    const whole: number[] = [];
    const sections: number[] = [];
    if (!written) return { whole, sections };
    const keys = this.catalogKeys();
    const names = (form: string, i: number) => form !== '' && (form === written || (rest !== '' && form === rest && this.mayDrop(given.type, i)));
    // A title written in front that the catalog's name has not (`Dr. Norberto Treviño Zapata` for *Norberto Treviño Zapata*).
    const titled = (given.withoutTitle ??= looseFrontless(this.writtenKey(given)));
    const add = (found: number[], i: number) => {
      if (!found.some((j) => this.names[j] === this.names[i])) found.push(i);
    };
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (names((key.loose ??= withoutConnectors(key.whole)), i)) add(whole, i);
      else if (names((key.looseSectionless ??= looseSectionless(key.whole)), i) || names((key.looseFrontless ??= looseFrontless(key.whole)), i) || (titled !== '' && key.loose === titled)) add(sections, i);
    }
    if (whole.length === 0 && sections.length === 0) this.shortened(written, rest, given.type, whole);
    if (whole.length === 0 && sections.length === 0) this.togetherOrApart(written, rest, given.type, whole);
    if (whole.length === 0 && sections.length === 0) this.sectionByOrdinal(text, written, whole);
    return { whole, sections };
  }

  /**
   * Adds the one settlement of the code that is a section alone (*Primera Sección*, *3a Sección*),
   * when only its ordinal is written (`PRIMERA`, `3RA`), as INEGI's DENUE writes the settlement of
   * a section, its type `SECCION` in a field apart. A number alone (`1`) is no ordinal.
   */
  private sectionByOrdinal(text: string, written: string, found: number[]): void {
    if (!/^\d+$/.test(written) || !/\p{L}/u.test(text)) return;
    const section = `seccion ${written}`;
    this.addOnly(found, (key) => key.whole === section);
  }

  /**
   * Adds to `found` the one settlement of the code (twins being one) whose key passes `test`;
   * nothing when none does or several do. Whether any did.
   */
  private addOnly(found: number[], test: (key: Keyed, i: number) => boolean): boolean {
    const keys = this.catalogKeys();
    let any = false;
    for (let i = 0; i < keys.length; i++) {
      if (!test(keys[i]!, i) || found.some((j) => this.names[j] === this.names[i])) continue;
      any = true;
      if (found.length) {
        found.length = 0;
        return true;
      }
      found.push(i);
    }
    return any;
  }

  /**
   * Adds the one settlement of the code whose name is the written one with its words run
   * together or split otherwise (`Montealban` for *Monte Alban*, `Buena Vista` for *Buenavista*):
   * the same letters, only the spaces differ.
   */
  private togetherOrApart(written: string, rest: string, type: string | null, found: number[]): void {
    const letters = written.replaceAll(' ', '');
    // The name after its type too (`Fracc. Montealban`), as `looseMatches` reads it.
    const restLetters = rest.replaceAll(' ', '');
    if (letters.length < MIN_ONE_WORD) return;
    this.addOnly(found, (key, i) => {
      const own = (key.looseLetters ??= key.loose!.replaceAll(' ', ''));
      return own === letters || (restLetters.length >= MIN_ONE_WORD && own === restLetters && this.mayDrop(type, i));
    });
  }

  /**
   * Adds the one settlement of the code whose name begins with the written name's words, two or
   * more, and goes on (`Carmen Romano` for *Carmen Romano de López Portillo*, `Carlos Salinas`
   * for *Carlos Salinas de Gortari*, `Valle de Ecatepec` for *Valle de Ecatepec Estado de México
   * CTM XIII*), else the one whose name ends with them after words left out in front (`San
   * Manuel` for Puebla's *Jardines de San Manuel*, `López Mateos` for *Adolfo López Mateos*), as
   * people shorten a long name at either end; with a type in front or not (`Col. Carlos
   * Salinas`). Read within a code's names only (across a municipality, `San Marcos` begins too
   * many names to say which).
   */
  private shortened(written: string, rest: string, type: string | null, found: number[]): void {
    // Only a form of two words or more is read so: as written, or after its type.
    const asWritten = written.includes(' ');
    const afterType = rest.includes(' ');
    if (!asWritten && !afterType) return;
    const begins = (name: string, form: string) => name.startsWith(`${form} `);
    if (this.addOnly(found, (key, i) => (asWritten && begins(key.loose!, written)) || (afterType && begins(key.loose!, rest) && this.mayDrop(type, i)))) return;
    // The end is read only where no name begins so (and several that do say nothing): one word
    // left out in front, a person's first name or a word such as *Jardines de*.
    const endWritten = asWritten && mayEndName(written);
    const endRest = afterType && mayEndName(rest);
    const ends = (name: string, form: string) => name.indexOf(' ') === name.length - form.length - 1 && name.endsWith(form);
    if ((endWritten || endRest) && this.addOnly(found, (key, i) => ((endWritten && ends(key.loose!, written)) || (endRest && ends(key.loose!, rest) && this.mayDrop(type, i))) && mayLeaveOutFront(key, this.names[i]!))) return;
    // Last, words left out between the first and the last, as a person's middle name or initial
    // is (`Francisco Madero` for *Francisco I. Madero*, `General Anaya` for *General Pedro María
    // Anaya*): every written word one that names.
    const middleWritten = asWritten && namesEveryWord(written);
    const middleRest = afterType && namesEveryWord(rest);
    if (middleWritten || middleRest) this.addOnly(found, (key, i) => (middleWritten && keepsEnds(key.loose!, written)) || (middleRest && keepsEnds(key.loose!, rest) && this.mayDrop(type, i)));
  }

  /** The catalog's spelling of the settlement `text` names, or undefined. */
  match(text: string): string | undefined {
    const found = this.indexOf(text);
    return found < 0 ? undefined : this.names[found];
  }

  /** The one settlement of this code that is its town itself, once found. */
  private seat: number | undefined;

  /** The one settlement of this code that is its town itself (`isTownSeat`), or -1 (none, or several). */
  private townSeat(): number {
    return (this.seat ??= this.findTownSeat());
  }

  private findTownSeat(): number {
    const keys = this.catalogKeys();
    const [municipalityKey, cityKey] = this.placeKeys;
    let seat = -1;
    for (let i = 0; i < keys.length; i++) {
      if (!isTownSeat(keys[i]!.whole, this.types?.[i], municipalityKey, cityKey)) continue;
      if (seat >= 0) return -1;
      seat = i;
    }
    return seat;
  }

  /** Whether a type written in front may be set aside before settlement `i`'s name. */
  private mayDrop(type: string | null, i: number): boolean {
    return mayDropType(type, this.types?.[i]);
  }

  /** The first settlement that `accepts`, one of the written type first. */
  private preferType(type: string | null, accepts: (key: Keyed, i: number) => boolean): number {
    const keys = this.catalogKeys();
    let first = -1;
    for (let i = 0; i < keys.length; i++) {
      if (!accepts(keys[i]!, i)) continue;
      if (!this.types || this.types[i] === type) return i;
      if (first < 0) first = i;
    }
    return first;
  }
}

const matchers = new WeakMap<CatalogReader, Map<number, SettlementMatcher>>();

/** The matcher of a code's settlements (by code index), kept per catalog. */
export function settlementMatcherOf(catalog: CatalogReader, code: number): SettlementMatcher {
  let byCode = matchers.get(catalog);
  if (!byCode) matchers.set(catalog, (byCode = new Map()));
  let matcher = byCode.get(code);
  if (!matcher) {
    const names: string[] = [];
    const types: string[] = [];
    for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) {
      names.push(catalog.settlementName(s));
      types.push(catalog.settlementType(s));
    }
    byCode.set(code, (matcher = new SettlementMatcher(names, types, [catalog.municipalityOf(code), catalog.cityOf(code)])));
  }
  return matcher;
}

/**
 * The catalog's spelling of the settlement of postal code `code` (a 5-digit code or a code
 * index) that `text` names, or undefined (also for a code the catalog does not have).
 */
export function matchSettlement(catalog: CatalogReader, code: string | number, text: string): string | undefined {
  const index = typeof code === 'number' ? code : catalog.codeIndex(code);
  if (index < 0) return undefined;
  return settlementMatcherOf(catalog, index).match(text);
}


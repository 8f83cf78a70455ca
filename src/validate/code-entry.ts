/**
 * What validation knows of one postal code: the answer's values as written (asked of the
 * router once per code), the names' folded forms made when a record first needs them, and the
 * readings of names written as people write them. Also the nearest settlement of a code to a
 * misspelt one.
 */
import { afterDe, foldForMatch, isDowntownKey, LOCALITY_TYPES, municipalityKeys, nameKey, SettlementMatcher, settlementKey, splitSettlementType, stateKeyOf, type SplitSettlement } from '../core/names.js';
import { CARDINAL_POINTS, DISTINGUISHING_TYPES, ORDINAL_WORDS } from '../core/name-forms.js';
import { cityNames, isPlaceByName, namedSectionless, namesItsPlace, undividedReading, withSurname } from '../core/settlement-other-keys.js';
import { shortenedKeys } from '../core/shortened-municipalities.js';
import { romanNumeral, withoutConnectors } from '../core/name-keys.js';
import { SUGGESTION_THRESHOLD, type ValidationError } from './result.js';
import { typos } from '../parse/typos.js';

/**
 * What the entries of one validator share (one object, not a field each per entry): folded
 * forms and keys of the catalog's own names (municipalities, cities), each made once, bounded
 * by the catalog; where a code's settlements' types are asked; and the settlement matchers
 * last made.
 */
export class EntryContext {
  private readonly folded = new Map<string, string>();

  constructor(
    /** Where the settlements' types of a code are asked (in the order of its names), only when a name needs reading. */
    readonly typesOf: (cp: string) => readonly string[],
  ) {}

  fold(name: string): string {
    return readOnce(this.folded, name, foldForMatch);
  }

  private readonly keys = new Map<string, string>();

  /** `nameKey` of a catalog name (a municipality, a city), shared by the codes that have it. */
  key(name: string): string {
    return readOnce(this.keys, name, nameKey);
  }

  /**
   * The entries holding a matcher, in two rings, oldest first: past its size a ring's oldest
   * lets its matcher go. A matcher is first kept among the last few made (`KEPT_MATCHERS`); a
   * code asked for one again soon after it was let go (`RECENT_CODES`) has its next one kept
   * among the many (`KEPT_RETURNING`).
   */
  private readonly holding: (CodeEntry | undefined)[] = [];
  private next = 0;
  private readonly returning: (CodeEntry | undefined)[] = [];
  private nextReturning = 0;
  /** When each code (by number) last let its matcher go, counted in matchers let go; -1 never. */
  private letGoAt: Int32Array | undefined;
  private lettingGo = 0;

  /** Notes that `entry`, of code number `code`, made a matcher, letting the oldest holder's go when its ring is full. */
  kept(entry: CodeEntry, code: number): void {
    const letGoAt = (this.letGoAt ??= new Int32Array(100_000).fill(-1));
    const back = code >= 0 && letGoAt[code]! >= 0 && this.lettingGo - letGoAt[code]! <= RECENT_CODES;
    const ring = back ? this.returning : this.holding;
    const at = back ? this.nextReturning : this.next;
    const oldest = ring[at];
    if (oldest) {
      const oldestCode = oldest.forgetMatcher();
      if (oldestCode >= 0) letGoAt[oldestCode] = ++this.lettingGo;
    }
    ring[at] = entry;
    if (back) this.nextReturning = (at + 1) % KEPT_RETURNING;
    else this.next = (at + 1) % KEPT_MATCHERS;
  }
}

/** The reading of a catalog name, made at its first use and kept (the catalog bounds what is kept). */
function readOnce(readings: Map<string, string>, name: string, read: (name: string) => string): string {
  let reading = readings.get(name);
  if (reading === undefined) {
    reading = read(name);
    readings.set(name, reading);
  }
  return reading;
}

/**
 * Matchers kept at once, per validator: the last few codes a record needed one for (records
 * of one place come together in real files). A matcher keys all of a code's names; kept for
 * every code, or even for the last few thousand, they lived long enough to reach the old
 * generation and died there, and a run's peak memory grew with its input; kept for the last
 * few, they die young and it stays flat. Making one again costs about as much as the first
 * reading of a misspelt name.
 */
const KEPT_MATCHERS = 8;

/**
 * A code asked for a matcher again within this many matchers let go is one the input comes
 * back to (the places of one region, a list of addresses read again): its next matcher is
 * kept among `KEPT_RETURNING`. Codes drawn at random from the whole catalog come back this
 * soon rarely (2,048 of 32,166), so their matchers still die young.
 */
const RECENT_CODES = 2048;

/** Matchers kept for codes the input comes back to (see `RECENT_CODES`): a few MB at most. */
const KEPT_RETURNING = 1024;

/**
 * What validation needs of a code: one small object per code (32,166 of them, in each
 * thread), the answer's values as written, and the names' folded forms made only when a
 * record first needs them (most records match as written).
 */
export class CodeEntry {
  /** The folded names, as `nameLookup` joins them. */
  private foldedLookup: string | Set<string> | undefined;
  /** The folded names in order, kept only for codes with many (the joined form holds the rest). */
  private foldedList: string[] | undefined;
  /**
   * The names as one string, each between SEPARATORs, or a Set for codes with very many:
   * one object to read per record instead of one per name (most codes have a handful).
   */
  private readonly nameLookup: string | Set<string>;
  /** The names in order, kept only beside a Set (a joined lookup holds them): one array fewer per code. */
  private readonly nameList: readonly string[] | undefined;

  /** The catalog's index of this code's municipality, set by the validator (which has the catalog) the first time it needs it. */
  municipalityIndex: number | undefined;

  /** Reads settlements written otherwise than the catalog writes them; made at the first such record, let go when the validator has made a few since. */
  private matcher: SettlementMatcher | undefined;

  constructor(
    readonly error: ValidationError | undefined,
    names: readonly string[],
    readonly estado: string,
    readonly municipio: string,
    readonly ciudad: string,
    /** The state's catalog name and aliases, folded; shared by the codes of a state. */
    readonly stateNames: Set<string>,
    /** What the validator's entries share; undefined for an entry of an error (it has no names to read). */
    private readonly context: EntryContext | undefined,
    /** The code's number (a code of 5 digits), for `typesOf`; -1 for an entry of an error. */
    private readonly code = -1,
  ) {
    this.nameLookup = nameLookup(names);
    // An empty list joins to what a list of one empty name does: kept as it is.
    if (typeof this.nameLookup !== 'string' || names.length === 0) this.nameList = names;
  }

  /** The settlements' names as the catalog writes them, in its order (from the joined form, for the rare record that asks). */
  get names(): readonly string[] {
    return this.nameList ?? splitLookup(this.nameLookup as string);
  }

  /** The name at `index` of `names`, read in the joined form (nothing is split for it). */
  nameAt(index: number): string {
    if (this.nameList) return this.nameList[index]!;
    const lookup = this.nameLookup as string;
    let from = 1;
    for (let k = 0; k < index; k++) from = lookup.indexOf(SEPARATOR, from) + 1;
    return lookup.slice(from, lookup.indexOf(SEPARATOR, from));
  }

  /** The catalog's spelling of an accepted settlement: the name it folds to, else the one it reads as, with or without joining words. */
  spellingOf(written: string): string | undefined {
    const folded = this.foldedIndexOf(foldForMatch(written));
    return folded >= 0 ? this.nameAt(folded) : (this.readSettlement(written) ?? this.readSettlementLoosely(written));
  }

  /**
   * Whether the code holds the downtown of `written` (a locality, as the city field of INEGI's
   * DENUE and of shops' records holds it): `written` names one of the code's settlements that
   * is a whole locality (`LOCALITY_TYPES`), as the catalog writes it or read as settlements are
   * (`Salto de Eyipantla` for the Ranchería *El Salto de Eyipantla*, `Estación Juanita` for
   * *Juanita*), or one of the code's settlements is that locality's downtown by its name (*La
   * Junta Centro* for `La Junta`, a town of Guerrero, Chihuahua), or its one settlement is named
   * as that locality (`namesItsPlace`: *Oaxaca* of 68000 for `Oaxaca de Juárez`).
   */
  holdsDowntownOf(written: string): boolean {
    const names = this.names;
    const place = settlementKey(written);
    const types = this.types();
    if (place) {
      const keys = names.map(settlementKey);
      if (keys.some((key) => isDowntownKey(key, '', place))) return true;
      // A code whose one settlement is named as the place, whatever its type, is that place: Oaxaca
      // de Juárez's downtown is 68000's Colonia *Oaxaca*.
      if (keys.length === 1 && namesItsPlace(keys[0]!, place, '')) return true;
      // Among several, a Colonia by the place's own name is its heart (the town's first colonia):
      // Concepción del Oro's 98200 has the Colonia *Concepción del Oro* among its ten (the caller
      // rules out a place whose downtown is another code's).
      if (keys.some((key, i) => types[i] === 'Colonia' && isPlaceByName(key, place))) return true;
    }
    const name = this.spellingOf(written);
    if (name === undefined) return false;
    return names.some((own, i) => own === name && LOCALITY_TYPES.has(types[i]!));
  }

  /**
   * The catalog's spelling of the settlement `written` names in a form people write (`Col. ...`,
   * `Sta.`), or undefined; `afterType` is `nameAfterType(split)` when the caller has it.
   */
  readSettlement(written: string, split: SplitSettlement = splitSettlementType(written), afterType = this.nameAfterType(split)): string | undefined {
    // The common case first: a type in front of the catalog's name (`COL. GRANJAS ESMERALDA`),
    // found among the folded names this entry already has; the code's names are read (and
    // the matcher made) only for what that does not find.
    if (afterType >= 0 && !DISTINGUISHING_TYPES.includes(split.type!)) return this.nameAt(afterType);
    return this.settlementMatcher().match(written);
  }

  /** The index of the name written after a type (`COL. GRANJAS ESMERALDA`), found among the folded names; -1 when none, or no type is written. */
  nameAfterType(split: SplitSettlement): number {
    return split.type ? this.foldedIndexOf(foldForMatch(split.name)) : -1;
  }

  /**
   * Whether the name after a type (`nameAfterType`) is the code's settlement of that very type
   * (`Col. Roma Norte` for the Colonia *Roma Norte*): the form people write most, read without
   * keying the name.
   */
  hasOwnType(split: SplitSettlement, afterType: number): boolean {
    return afterType >= 0 && this.types()[afterType] === split.type;
  }

  /** The catalog's spelling of the one settlement `written` names without its joining words or section (`SettlementMatcher.looseIndexOf`), or undefined. */
  readSettlementLoosely(written: string): string | undefined {
    const found = this.settlementMatcher().looseIndexOf(written);
    return found < 0 ? undefined : this.nameAt(found);
  }

  /**
   * Whether `written` is a type in front of one of the code's settlements of that type, by its
   * own name (`Col. Del Río` for the Colonia *Del Río*): not by a name it is read by, as
   * `Col. Nueva Mina` for 96729's *Nueva Mina Sur*, which is 96760's own *Nueva Mina*.
   */
  readsWithOwnType(split: SplitSettlement): boolean {
    if (!split.type) return false;
    const found = this.settlementMatcher().ownNameIndexOf(split.name);
    return found >= 0 && this.types()[found] === split.type;
  }

  /** The settlements' types, in the order of `names`: asked once, when a name first needs them. */
  private typeList: readonly string[] | undefined;

  private types(): readonly string[] {
    return (this.typeList ??= this.code >= 0 && this.context ? this.context.typesOf(String(this.code).padStart(5, '0')) : []);
  }

  /** Whether `written` names one or more of the code's settlements without joining words or sections (`SettlementMatcher.namesLoosely`). */
  namesLoosely(written: string): boolean {
    return this.settlementMatcher().namesLoosely(written);
  }

  private settlementMatcher(): SettlementMatcher {
    if (!this.matcher) {
      this.matcher = new SettlementMatcher(this.names, this.types(), [this.municipio, this.ciudad]);
      this.context?.kept(this, this.code);
    }
    return this.matcher;
  }

  /** Lets the matcher go (made again if a record needs it): the validator keeps a few only (`EntryContext.kept`); gives the code's number. */
  forgetMatcher(): number {
    this.matcher = undefined;
    return this.code;
  }

  /** Whether a state written in any form (`N.L.`, `NLE`, `19`) is this code's state. */
  isState(written: WrittenName): boolean {
    if (this.stateNames.has(written.folded)) return true;
    const key = stateKeyOfWritten(written);
    return key >= 0 && key === stateKeyOf(this.estado);
  }

  /** The keys of the catalog's municipality and city names (`nameKey`), made once per name for all the codes that have it. */
  private get municipioKey(): string {
    return this.keyOf(this.municipio);
  }

  private get ciudadKey(): string {
    return this.keyOf(this.ciudad);
  }

  private keyOf(name: string): string {
    return this.context ? this.context.key(name) : nameKey(name);
  }

  /** Whether a municipality written in any form (`Alc. Iztapalapa`, `Gral. Escobedo`) is this code's. */
  isMunicipality(written: WrittenName): boolean {
    return written.folded === this.foldedMunicipio || municipalityKeysOf(written).includes(this.municipioKey);
  }

  /**
   * Whether a city written in any form (`Cd. Juárez`, `CDMX` for the city of Mexico City,
   * `Puebla` for Heroica Puebla de Zaragoza) is this code's city. `namesMunicipality` says
   * whether a name is this code's municipality in every form validation reads (written short
   * too, which needs the catalog: see AddressValidator).
   */
  isCity(written: WrittenName, namesMunicipality: (written: WrittenName) => boolean): boolean {
    if (written.folded === this.foldedCiudad) return true;
    if (this.ciudad && municipalityKeysOf(written).some((key) => this.cityKeys().includes(key))) return true;
    // A city whose name holds its municipality's, written as the municipality (`Puebla` for
    // Heroica Puebla de Zaragoza, `Querétaro` for Santiago de Querétaro, `Ecatepec` for
    // Ecatepec de Morelos), or that is the municipality's name written short, written as the
    // municipality (`San Pedro Tlaquepaque` for Tlaquepaque), as people write it.
    if (this.ciudad && this.cityIsMunicipality() && namesMunicipality(written)) return true;
    const city = stateKeyOf(this.ciudad);
    if (city < 0) return false;
    const state = stateKeyOfWritten(written);
    // `México` alone is the capital as a city (its name abroad, and the locality CFDI invoices
    // write for it): no city of the State of Mexico is so named.
    return state === city || (city === MEXICO_CITY && state === STATE_OF_MEXICO && written.folded.replace(NOT_LETTERS, '') === 'mexico');
  }

  /**
   * Whether a city written is this code's followed by a surname the catalog leaves out (`de`
   * or `del` and more words): `Uruapan del Progreso` for *Uruapan*, as INEGI names the
   * locality (and INE, DENUE and those who copy them write it). Whether that name is a city of
   * its own (*San Juan del Río*) is for the caller, which has the catalog, to rule out.
   */
  isCityWithSurname(written: WrittenName): boolean {
    return this.ciudad !== '' && writtenWithSurname(this.ciudadKey, written);
  }

  /**
   * The same for the municipality, written as INEGI names its seat: `Acuitzio del Canje` for
   * *Acuitzio*, `Calera de Víctor Rosales` for *Calera* (whether that name is a municipality or
   * a city of its own, *Atizapán de Zaragoza* for Atizapán, is for the caller to rule out).
   */
  isMunicipalityWithSurname(written: WrittenName): boolean {
    return writtenWithSurname(this.municipioKey, written);
  }

  private cityKeyList: readonly string[] | undefined;

  /** The keys of the names this code's city is known by (`cityNames`: `Juchitán de Zaragoza` for *Juchitán (Juchitán de Zaragoza)*). */
  private cityKeys(): readonly string[] {
    return (this.cityKeyList ??= cityNames(this.ciudad).map((name) => this.keyOf(name)));
  }

  private cityIsItsMunicipality: boolean | undefined;

  /** Whether this code's city is its municipality by name: its name holds the municipality's, is a short form of it, or is it without a joining word. */
  private cityIsMunicipality(): boolean {
    if (this.cityIsItsMunicipality === undefined) {
      const city = this.ciudadKey;
      const municipality = this.municipioKey;
      this.cityIsItsMunicipality =
        ` ${city} `.includes(` ${municipality} `) || shortenedKeys(municipality).includes(city) || withoutConnectors(city) === withoutConnectors(municipality);
    }
    return this.cityIsItsMunicipality;
  }

  hasName(name: string): boolean {
    return inLookup(this.nameLookup, name);
  }

  private folded(): string | Set<string> {
    if (this.foldedLookup === undefined) {
      const list = this.names.map(foldForMatch);
      this.foldedLookup = nameLookup(list);
      if (typeof this.foldedLookup !== 'string') this.foldedList = list;
    }
    return this.foldedLookup;
  }

  /** The folded names, in the order of `names` (from the joined form, for the rare record that asks). */
  foldedNames(): string[] {
    const lookup = this.folded();
    return typeof lookup === 'string' ? splitLookup(lookup) : this.foldedList!;
  }

  hasFoldedName(folded: string): boolean {
    return inLookup(this.folded(), folded);
  }

  /** The index of the name that folds to `folded`, else -1 (read in the joined form: nothing is split for it). */
  foldedIndexOf(folded: string): number {
    const lookup = this.folded();
    if (typeof lookup !== 'string') return this.foldedList!.indexOf(folded);
    if (!folded || folded.includes(SEPARATOR)) return -1;
    const at = lookup.indexOf(`${SEPARATOR}${folded}${SEPARATOR}`);
    if (at < 0) return -1;
    let index = 0;
    for (let i = lookup.indexOf(SEPARATOR, 1); i >= 0 && i <= at; i = lookup.indexOf(SEPARATOR, i + 1)) index++;
    return index;
  }

  get foldedMunicipio(): string {
    return this.context!.fold(this.municipio);
  }

  get foldedCiudad(): string {
    return this.context!.fold(this.ciudad);
  }
}

/**
 * A state, municipality or city name as written, read once per distinct spelling (they repeat
 * far more than they vary): its fold, and its readings made only when a record needs them.
 */
export interface WrittenName {
  readonly text: string;
  readonly folded: string;
  /** `stateKeyOf` the text, once asked. */
  stateKey?: number;
  /** `municipalityKeys` of the text, once asked. */
  keys?: string[];
}

export function readWritten(text: string): WrittenName {
  return { text, folded: foldForMatch(text) };
}

function stateKeyOfWritten(written: WrittenName): number {
  return (written.stateKey ??= stateKeyOf(written.text));
}

/** The readings of a written municipality or city name (`municipalityKeys`), made once per name. */
export function municipalityKeysOf(written: WrittenName): string[] {
  return (written.keys ??= municipalityKeys(written.text));
}

/** Whether a name written is the place of key `own` followed by a surname of two letters or more (`withSurname`). */
function writtenWithSurname(own: string, written: WrittenName): boolean {
  return own !== '' && municipalityKeysOf(written).some((key) => key.length > own.length + 5 && withSurname(key, own));
}

/** The state keys (INEGI's numbers) of Ciudad de México, the city of Mexico City, and of the State of Mexico. */
const MEXICO_CITY = 9;
const STATE_OF_MEXICO = 15;
const NOT_LETTERS = /[^a-z]/g;

/** Between names in a joined lookup: a control character no name holds. */
const SEPARATOR = '\u0001';
const MANY_NAMES = 32;

function nameLookup(names: readonly string[]): string | Set<string> {
  // A name holding the separator itself would make the joined form ambiguous.
  if (names.length > MANY_NAMES || names.some((name) => name.includes(SEPARATOR))) return new Set(names);
  // Joined in one step, so the engine makes one flat string: joined with `+`, some entries
  // kept the engine's tree of the parts (a cons string) beside it for as long as the run.
  return ['', ...names, ''].join(SEPARATOR);
}

/** The names of a joined lookup, in order. */
function splitLookup(lookup: string): string[] {
  return lookup.slice(1, -1).split(SEPARATOR);
}

/** Whether `name` is one of the entries of a lookup made by `nameLookup`. */
function inLookup(lookup: string | Set<string>, name: string): boolean {
  if (typeof lookup !== 'string') return lookup.has(name);
  if (!name || name.includes(SEPARATOR)) return false;
  for (let at = lookup.indexOf(name, 1); at > 0; at = lookup.indexOf(name, at + 1)) {
    if (lookup.charCodeAt(at - 1) === 1 && lookup.charCodeAt(at + name.length) === 1) return true;
  }
  return false;
}

export const NO_NAMES: string[] = [];
export const NO_STATES = new Set<string>();

/**
 * The settlement of the code nearest to what was written, with or without the type written in
 * front (never without an `Ampliación`, another place: `AMPLIACION FRANCISCO VILLA` for 96020,
 * which has only *Francisco Villa*, suggests nothing); else the one it names with a section the
 * catalog does not have (`namedSectionless`).
 */
export function suggestSettlement(written: string, folded: string, code: CodeEntry): string | undefined {
  const split = splitSettlementType(written);
  if (split.type !== null && DISTINGUISHING_TYPES.includes(split.type)) {
    const near = closest(folded, code);
    return near !== undefined && splitSettlementType(near).type === split.type ? near : undefined;
  }
  // After a type, its `de` is no part of the name (`BARRIO DE TECASTITLA` is *Tecaxtitla* misspelt).
  const name = (split.type && afterDe(split.name)) || split.name;
  return closest(folded, code) ?? (split.type ? closest(foldForMatch(name), code) : undefined) ?? undivided(name || written, code);
}

/**
 * The one settlement of the code a name written with a section names, where the code does
 * not divide it (`Lomas Estrella 2a Sección` for *Lomas Estrella*), as codes from names read it
 * (parse/loose-names).
 */
function undivided(written: string, code: CodeEntry): string | undefined {
  const place = namedSectionless(settlementKey(written));
  if (!place) return undefined;
  let found: string | undefined;
  for (const name of code.names) {
    const reading = undividedReading(place, settlementKey(name));
    if (reading === 'section' || (reading === 'place' && found !== undefined)) return undefined;
    if (reading === 'place') found = name;
  }
  return found;
}

/**
 * The settlement of the code nearest to `given` by typing mistakes (`typos`: a swap of neighbouring letters is one), if near enough, the one
 * nearest (two names as near say nothing: `Blanco y Cuellar` is none of *Blanco y Cuellar 1ra.*,
 * *2da.* and *3ra.*), and one that keeps what tells places apart: each number `given` writes (a
 * section, a sector, a date: `Súper Manzana 200` is not *Supermanzana 4 A*, nor `5 de Mayo` *3
 * de Mayo*) and each word of side or age (`Jaltepec de Abajo` is not *Jaltepec de Arriba*),
 * however few letters apart.
 */
function closest(given: string, code: CodeEntry): string | undefined {
  const foldedNames = code.foldedNames();
  let best = -1;
  let bestSimilarity = 0;
  let tied = false;
  let written: { numbers: string[]; sides: string[] } | undefined;
  for (let i = 0; i < foldedNames.length; i++) {
    const name = foldedNames[i]!;
    const longer = Math.max(given.length, name.length, 1);
    // The distance is at least the difference in length: a name that cannot reach the
    // threshold is not measured (and a huge value costs nothing).
    if (1 - Math.abs(given.length - name.length) / longer < SUGGESTION_THRESHOLD) continue;
    // Mistakes past what the best name so far (or the threshold) allows are not told apart.
    const similarity = 1 - typos(given, name, Math.floor((1 - Math.max(SUGGESTION_THRESHOLD, bestSimilarity)) * longer + 1e-9)) / longer;
    if (similarity < SUGGESTION_THRESHOLD || similarity < bestSimilarity || (similarity === bestSimilarity && name === foldedNames[best])) continue;
    written ??= { numbers: writtenNumbers(given), sides: sideWords(settlementKey(given)) };
    if (!keepsApart(name, written.numbers, written.sides)) continue;
    tied = similarity === bestSimilarity;
    if (!tied) {
      bestSimilarity = similarity;
      best = i;
    }
  }
  return best >= 0 && !tied ? code.nameAt(best) : undefined;
}

/**
 * Words that tell a place from its namesake by its side, size or age (`Jaltepec de Arriba`, `de
 * Abajo`; `Hidalgo Oriente`, `Poniente`), each by its masculine form (`Nuevo` and `Nueva` are one
 * word, as people mistake them).
 */
const SIDE_WORDS: ReadonlyMap<string, string> = new Map([
  ...[...CARDINAL_POINTS, 'arriba', 'abajo', 'nuevo', 'viejo', 'grande', 'chico', 'alto', 'bajo'].map((word) => [word, word] as const),
  ...[['nueva', 'nuevo'], ['vieja', 'viejo'], ['chica', 'chico'], ['alta', 'alto'], ['baja', 'bajo']].map(([word, as]) => [word!, as!] as const),
]);

/** The side words of a name's key (`Ote.` is `oriente` there), each by its masculine form. */
function sideWords(key: string): string[] {
  const sides: string[] = [];
  for (const word of key.split(' ')) {
    const side = SIDE_WORDS.get(word);
    if (side) sides.push(side);
  }
  return sides;
}

/** Whether a catalog name holds each number and side word written (its key made once, and only when either is written). */
function keepsApart(name: string, numbers: string[], sides: string[]): boolean {
  if (numbers.length === 0 && sides.length === 0) return true;
  const key = settlementKey(name);
  if (numbers.length && !holdsNumbers(numbersOf(key), numbers)) return false;
  const own = sideWords(key);
  return sides.every((word) => own.includes(word));
}

/**
 * The numbers of a catalog name's key (`Primera Sección`, `1a Secc.` and `Sección I` are 1
 * there), each the digits a word starts with.
 */
function numbersOf(key: string): string[] {
  const numbers: string[] = [];
  for (const word of key.split(' ')) {
    const digits = /^\d+/.exec(word);
    if (digits) numbers.push(String(Number(digits[0])));
  }
  return numbers;
}

/**
 * The numbers a folded name writes: in digits (the digits a word starts with: `3s Etapa`, a
 * misspelt ordinal, is 3), as an ordinal word (`Primera`, the table keys read), or in Roman
 * numerals of i, v and x, as sections are numbered, of two letters or more (`XIV`), or of one as
 * its last word (`Oriente I`; elsewhere one letter is an initial: `Francisco V. Mujica`). Other
 * numbers in words are left out (`dos` may be a misspelt `los`, and `lv` a misspelt `la`).
 */
function writtenNumbers(folded: string): string[] {
  const numbers: string[] = [];
  const words = folded.split(/[^a-z0-9]+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const digits = /^\d+/.exec(word);
    const ordinal = Object.hasOwn(ORDINAL_WORDS, word) ? ORDINAL_WORDS[word] : undefined;
    if (digits) numbers.push(String(Number(digits[0])));
    else if (ordinal !== undefined) numbers.push(String(ordinal));
    else if ((word.length > 1 || i === words.length - 1) && !word.includes('l')) {
      const roman = romanNumeral(word);
      if (roman !== undefined) numbers.push(String(roman));
    }
  }
  return numbers;
}

/** Whether a name's numbers hold each number written (a misspelling may have made one of the name's no number: `XIE` for `XIV`). */
function holdsNumbers(own: string[], written: string[]): boolean {
  const left = own.slice();
  return written.every((number) => {
    const at = left.indexOf(number);
    if (at >= 0) left.splice(at, 1);
    return at >= 0;
  });
}

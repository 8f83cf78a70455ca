/**
 * Address validation: is this record's settlement, municipality, state and city right for
 * its postal code, and if not, which field is wrong and what is the right value probably? The
 * code is checked through the router (`infoCp` simplified), so its errors are the contract's
 * own. When a code is missing, is no code, or disagrees with names that agree with one
 * another, the names are read against the catalog (parse/places: the rule `cpmx parse` uses
 * for a line without a code): the code they name is suggested, never the names of the code
 * as written.
 */
import { catalogOf, type CpmxClient } from '../client/client.js';
import { retiredReason } from '../core/catalog-history.js';
import type { Catalog } from '../core/catalog.js';
import { foldForMatch, isDowntownKey, settlementKey, splitSettlementType, stateSpellings } from '../core/names.js';
import { placeFinderOf, type PlaceFinder } from '../parse/places.js';
import type { SettlementIndexData } from '../parse/settlement-index.js';
import { CodeEntry, EntryContext, municipalityKeysOf, NO_NAMES, NO_STATES, readWritten, suggestSettlement, type WrittenName } from './code-entry.js';
import { shortForms, stateNamedMunicipality } from '../core/shortened-municipalities.js';
import { ownsName } from '../core/settlement-other-keys.js';
import { citiesOfSeveralMunicipalities, cityOfState } from '../core/shared-cities.js';
import { FIELDS, recordMapper, type Field, type FieldValues } from './fields.js';
import { Remembered } from '../parse/remembered.js';
import {
  CITY_UNVERIFIABLE,
  FIX_VALID,
  MAX_SUGGESTED_CODES,
  VALID,
  VALIDATION_ERRORS,
  text,
  unreadable,
  type AddressRecord,
  type Fix,
  type ValidationError,
  type ValidationResult,
} from './result.js';

export { FIELDS, type Field } from './fields.js';
export {
  CITY_UNVERIFIABLE,
  MAX_SUGGESTED_CODES,
  SUGGESTION_THRESHOLD,
  VALID,
  VALIDATION_ERRORS,
  text,
  unreadable,
  type AddressRecord,
  type FieldValue,
  type Fix,
  type ValidationError,
  type ValidationResult,
} from './result.js';

/**
 * A validator bound to one client. What it remembers is bounded by the catalog, never by the
 * input: one entry per 5-digit code (codes of any other shape are answered afresh each time,
 * so 100 KB "codes" cost nothing to remember), one set of spellings per state.
 */
export class AddressValidator {
  /** Entries of 5-digit codes by their number: no string hashing for the common case. */
  private readonly byNumber: (CodeEntry | undefined)[] = new Array<CodeEntry | undefined>(100_000);
  /** Codes that are not in the catalog share one entry per error. */
  private readonly errorEntries = new Map<number, CodeEntry>();
  private readonly states = new Map<string, Set<string>>();
  /** States, municipalities and cities as written, each read once. */
  private readonly written = new Remembered(readWritten);

  /** Public for `--coordinates`, which asks the same client for the geodata. */
  constructor(readonly client: CpmxClient) {}

  private stateNames(estado: string): Set<string> {
    let names = this.states.get(estado);
    if (!names) {
      names = new Set(stateSpellings(estado).map(foldForMatch));
      this.states.set(estado, names);
    }
    return names;
  }

  /**
   * A code's facts, asked of the router. (When the client offers a code's municipality and
   * settlements as lookups of their own, this is the one place to ask them instead.)
   */
  private entryFor(cp: string): CodeEntry {
    const body = this.client.infoCp(cp, { type: 'simplified' });
    if (!body.error) {
      const r = body.response;
      return new CodeEntry(undefined, r.asentamiento, r.estado, r.municipio, r.ciudad, this.stateNames(r.estado), this.entries, fiveDigits(cp));
    }
    if (body.code_error === 105) {
      const retired = this.retired(cp);
      if (retired) return retired;
    }
    let entry = this.errorEntries.get(body.code_error);
    if (!entry) {
      const error: ValidationError = { field: 'cp', code_error: body.code_error, error_message: body.error_message };
      entry = new CodeEntry(error, NO_NAMES, '', '', '', NO_STATES, undefined);
      this.errorEntries.set(body.code_error, entry);
    }
    return entry;
  }

  /** What the entries share; a code's settlements' types, in the order of its names, are asked of the router (full answers) only when a name needs reading. */
  private readonly entries = new EntryContext((cp) => {
    const full = this.client.infoCp(cp);
    return Array.isArray(full) ? full.map((record) => record.response.tipo_asentamiento) : [];
  });

  /**
   * A code the catalog lacks that an earlier one had (the artifact's history, see
   * `cpmx build --previous`): error 124 instead of 105, with since when and where it was.
   */
  private retired(cp: string): CodeEntry | undefined {
    if (typeof this.client.codeHistory !== 'function' || !/^\d{5}$/.test(cp)) return undefined;
    const history = this.client.codeHistory(cp);
    if (history.status !== 'retired') return undefined;
    const { retiredSince, lastSeen, lastPlace } = history;
    const retired = { retiredSince, lastSeen, lastPlace };
    const error: ValidationError = { field: 'cp', code_error: 124, error_message: VALIDATION_ERRORS[124], reason: retiredReason(retired), retired };
    return new CodeEntry(error, NO_NAMES, '', '', '', NO_STATES, undefined);
  }

  private lookup(cp: string): CodeEntry {
    const number = fiveDigits(cp);
    if (number < 0) return this.entryFor(cp);
    return (this.byNumber[number] ??= this.entryFor(cp));
  }

  /**
   * Whether the names given allow code `cp`, a code the record probably meant (`correctedCode`):
   * they name no other code (the rule of which field is wrong), and one of them at least is the
   * code's (a misspelt settlement of it is), or none is given. `6000` with *Uruapan Centro* is
   * no 06000 of the capital: 60000 lost its last digit, not its first.
   */
  private namesAllow(cp: string, asentamiento: string, municipio: string, estado: string, ciudad: string): boolean {
    const judged = this.validateFields(cp, asentamiento, municipio, estado, ciudad);
    if (judged.valid) return true;
    if (judged.suggestions.cp !== undefined || judged.codes !== undefined) return false;
    const names: [Field, string][] = [['asentamiento', asentamiento], ['municipio', municipio], ['estado', estado]];
    const given = names.filter(([, value]) => value.trim());
    const own = (field: Field) => !judged.errors.some((error) => error.field === field) || (field === 'asentamiento' && judged.suggestions.asentamiento !== undefined);
    return given.length === 0 || given.some(([field]) => own(field));
  }

  /** A code that the record probably meant, when `cp` is a spreadsheet's version of one, or written with its `C.P.` in front. */
  private correctedCode(cp: string): string | undefined {
    if (cp.length > 32) return undefined;
    const trimmed = cp.trim().replace(CODE_MARK, '').replace(/\.0+$/, '');
    const candidate = /^\d{4}$/.test(trimmed) ? `0${trimmed}` : trimmed;
    if (candidate !== cp && /^\d{5}$/.test(candidate) && !this.lookup(candidate).error) return candidate;
    return undefined;
  }

  /** Validates a record whose keys are read by the one mapping of names (`colonia` too). */
  validate(record: AddressRecord): ValidationResult {
    let values: FieldValues | undefined;
    try {
      values = defaultMapper(record);
    } catch (error) {
      // A getter or a proxy that throws: the record cannot be read, and the caller is told so.
      return unreadable(`cannot be read (${error instanceof Error ? String(error.message).slice(0, 200) : 'its keys threw'})`);
    }
    if (!values) return unreadable('not an object');
    return this.validateValues(values);
  }

  validateValues(values: FieldValues): ValidationResult {
    // A field holding an array or an object is no address text: said so, never turned into
    // text (a value nested thousands deep would overflow the stack doing it).
    for (const field of FIELDS) {
      const value = values[field];
      if (value !== null && (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol')) {
        return unreadable(`${field} holds ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}, not text`);
      }
    }
    return this.validateFields(values.cp, values.asentamiento, values.municipio, values.estado, values.ciudad);
  }

  /** The same check on the fields themselves (the CSV path has no record object to build). */
  validateFields(cpValue: unknown, asentamientoValue: unknown, municipioValue: unknown, estadoValue: unknown, ciudadValue: unknown): ValidationResult {
    const cp = text(cpValue);
    const code = this.lookup(cp);
    if (code.error) {
      const asentamiento = text(asentamientoValue);
      const municipio = text(municipioValue);
      const estado = text(estadoValue);
      const ciudad = text(ciudadValue);
      const corrected = code.error.code_error === 101 ? undefined : this.correctedCode(cp);
      if (corrected && this.namesAllow(corrected, asentamiento, municipio, estado, ciudad)) return { valid: false, errors: [code.error], suggestions: { cp: corrected } };
      // No code, none the catalog has, or one whose names are not the record's: the code the names name, if they name one.
      return this.codeFromNames({ valid: false, errors: [code.error], suggestions: {} }, -1, this.finder.codesOfRecord(asentamiento, municipio, estado, ciudad));
    }
    // Each field is first compared as written (the common case in exported data), and folded
    // only when that fails. Nothing is allocated for a valid record.
    let failed: Failed | undefined;
    const estado = text(estadoValue);
    // Past the folds, each field is read in the forms people write (core/names): only then.
    if (estado !== code.estado && estado.trim() && !code.isState(this.written.get(estado))) failed = fail(failed, 'estado', 120, code.estado);
    const municipio = text(municipioValue);
    if (municipio !== code.municipio && municipio.trim() && !this.isCodesMunicipality(code, cp, this.written.get(municipio))) {
      failed = fail(failed, 'municipio', 121, code.municipio);
    }
    const asentamiento = text(asentamientoValue);
    const ciudad = text(ciudadValue);
    if (asentamiento && !code.hasName(asentamiento) && asentamiento.trim()) {
      const given = foldForMatch(asentamiento);
      if (!code.hasFoldedName(given) && !this.isReadName(code, cp, asentamiento) && !this.isLocalityDowntown(code, cp, asentamiento, municipio, ciudad)) {
        failed = fail(failed, 'asentamiento', 122, suggestSettlement(asentamiento, given, code));
      }
    }
    let unverifiable = false;
    if (ciudad !== code.ciudad && ciudad.trim() && !this.isCodesCity(code, cp, this.written.get(ciudad))) {
      // A code without a city in the catalog cannot say a city is wrong: warned, not judged.
      if (code.ciudad) failed = fail(failed, 'ciudad', 123, this.namesOtherCodesPlace(code, cp, ciudad) ? undefined : code.ciudad);
      else unverifiable = true;
    }
    if (failed) {
      if (unverifiable) failed.warnings = CITY_UNVERIFIABLE.warnings!.slice();
      return failed.errors.some((error) => error.field !== 'ciudad') ? this.whichField(failed, cp, code, asentamiento, municipio, estado, ciudad) : failed;
    }
    return unverifiable ? CITY_UNVERIFIABLE : VALID;
  }

  /**
   * Whether a municipality written in any form is the code's: in a form its entry reads
   * (`Mpio. de Iztapalapa`), else written short (`Ecatepec` for *Ecatepec de Morelos*), by
   * the reading of names `cpmx parse` uses, asked of the catalog only for a name that is a
   * short form of some municipality; else by its city's name, the city in it alone (`Toluca de
   * Lerdo`).
   */
  private isCodesMunicipality(code: CodeEntry, cp: string, written: WrittenName): boolean {
    if (code.isMunicipality(written)) return true;
    const place = this.withoutCodesState(code, written.text);
    if (place) return this.isCodesMunicipality(code, cp, place);
    const catalog = this.catalog;
    const municipality = (code.municipalityIndex ??= catalog.municipalityIndexOf(catalog.codeIndex(cp)));
    const state = catalog.stateOfMunicipality(municipality);
    const short = (this.shortForms ??= shortForms(catalog));
    // A short form names the code's state's municipality of that form; one no municipality of the
    // state has may still be a city's name (`San Felipe`, 21850's city in Mexicali, is short for
    // *San Felipe del Progreso* and others in other states).
    const named = municipalityKeysOf(written).some((key) => short.has(key)) ? this.finder.municipalities(written.text, state) : undefined;
    if (named?.length) return named.includes(municipality);
    // Written by the name of a city that lies in this municipality alone (`Toluca de Lerdo` for Toluca),
    // or short by a state's name, which this field cannot mean (`Oaxaca` for Oaxaca de Juárez).
    if (this.finder.cityMunicipality(written.text, state) === municipality || stateNamedMunicipality(catalog, written.text, state, municipalityKeysOf(written)) === municipality) return true;
    // As INEGI names its seat, with a surname the catalog leaves out (`Acuitzio del Canje`), unless
    // so named a municipality or a city is another of the catalog's (*Atizapán de Zaragoza* for Atizapán).
    return code.isMunicipalityWithSurname(written) && this.finder.municipalities(written.text, state).length === 0 && this.finder.cityMunicipalities(written.text, -1).length === 0;
  }

  /**
   * Whether a settlement written otherwise than the catalog writes it is the code's: in a form
   * people write (`Col. Roma Norte`, `Sta. María`, `Centro` for *Monterrey Centro*), else with
   * or without its joining words (`Granjas San Antonio` for *Granjas de San Antonio*, `La
   * Primavera` for *Primavera*), its section (`Escandón` for *Escandón I Sección*) or a title
   * in front. A reading is not taken where the name as written is another code's settlement of
   * the municipality (`Barrio de Pajaritos` is 87089's, not 87086's Colonia *Pajaritos*; `La
   * Providencia` 02750's, not 02440's *Providencia*; its own name, not one it is read by too):
   * the code is then in doubt, unless the type written is the settlement's own.
   */
  private isReadName(code: CodeEntry, cp: string, asentamiento: string): boolean {
    // Written as the code's settlement with its own type in front (`Col. Roma Norte`): the code's, whatever other codes have.
    const split = splitSettlementType(asentamiento);
    const afterType = code.nameAfterType(split);
    if (code.hasOwnType(split, afterType)) return true;
    const read = code.readSettlement(asentamiento, split, afterType);
    if (read === undefined && !code.namesLoosely(asentamiento)) return false;
    const catalog = this.catalog;
    const index = catalog.codeIndex(cp);
    const municipality = (code.municipalityIndex ??= catalog.municipalityIndexOf(index));
    // Another code of the municipality whose settlement's own name this is takes it from a
    // reading of the code written: as written, else after its type (`Nueva Mina` and `Col.
    // Nueva Mina` are 96760's *Nueva Mina*, not 96729's *Nueva Mina Sur*; `Primer Cuadro` is
    // 81200's *Primer Cuadro (Centro)*, without its part in parentheses). A name another code
    // is only read by too is no better than this code's reading (`Col. Centro` is 95865's town,
    // Hueyapan de Ocampo, though 95850's *Juan Díaz Covarrubias Centro* is read by `Centro` too).
    const ownedElsewhere = (written: string) => {
      const named = this.finder.codesOfName(written, [municipality]);
      if (named.length === 0 || named.includes(index)) return false;
      const key = settlementKey(written);
      return named.some((other) => catalog.settlementNamesOf(other).some((name) => ownsName(name, key)));
    };
    // Whether the type written is a word of the name read is asked last: it keys three names, and
    // matters only for a name after the type that another code owns (rare).
    if (!ownedElsewhere(asentamiento) && !(split.type && ownedElsewhere(split.name) && !typeInName(asentamiento, split.name, read ?? code.readSettlementLoosely(asentamiento)))) return true;
    // Unless written as the code's settlement with its own type in front: `COL Del Río` is 83403's Colonia *Del Río*, though 83515 has a *Colonia del Río*.
    return code.readsWithOwnType(split);
  }

  /**
   * Whether a settlement written as a downtown (`Centro`, `Zona Centro`, `Col. Centro`) is the
   * heart of the locality the record names (its city field, else its municipality), when the
   * code holds that locality's downtown (`holdsDowntownOf`), as INEGI's DENUE writes the
   * businesses of small towns: `CENTRO` in *Suchilapan del Río* with 96970, whose Pueblo it is,
   * though Jesús Carranza's downtown is 96950's. A locality named as the code's municipality or
   * city is so read only where the downtown written names no other code of the municipality:
   * `CENTRO` in *Pajapan* with 95960 (the seat, which the catalog types Ranchería), but not
   * `Centro` in *Hermosillo* with 83334, Ranchería *Hermosillo* (Hermosillo's Centro is 83000).
   */
  private isLocalityDowntown(code: CodeEntry, cp: string, asentamiento: string, municipio: string, ciudad: string): boolean {
    const place = ciudad.trim() ? ciudad : municipio;
    if (!place.trim() || place.length > MAX_PLACE_CHARS) return false;
    const split = splitSettlementType(asentamiento);
    if (!isDowntownKey(settlementKey(split.type ? split.name : asentamiento)) || !code.holdsDowntownOf(place)) return false;
    const written = this.written.get(place);
    if (!this.isCodesMunicipality(code, cp, written) && !this.isCodesCity(code, cp, written)) return true;
    // The codes the downtown names in the code's municipality, as codes from names read it (a
    // town seat too: `Centro, Villa Victoria` is 50960's Pueblo, not 50986's Ejido *Villa Victoria*).
    const index = this.catalog.codeIndex(cp);
    const municipality = (code.municipalityIndex ??= this.catalog.municipalityIndexOf(index));
    return this.finder.settlementCodes(asentamiento, [municipality], -1, false).every((other) => other === index);
  }

  /**
   * Whether a city written that is not the code's names a place of other codes of its
   * municipality, as INEGI's DENUE writes a locality (`Tres Zapotes` with Santiago Tuxtla's 95830:
   * the Ranchería *3 Zapotes* is 95839's). The code is then as likely wrong as the city, and the
   * code's city is not suggested: `--fix` would replace a right locality with it.
   */
  private namesOtherCodesPlace(code: CodeEntry, cp: string, ciudad: string): boolean {
    // The municipality's name is no place of other codes (`Cajeme` for Ciudad Obregón is still 123, with its city suggested).
    if (ciudad.length > MAX_PLACE_CHARS || this.isCodesMunicipality(code, cp, this.written.get(ciudad))) return false;
    const index = this.catalog.codeIndex(cp);
    const municipality = (code.municipalityIndex ??= this.catalog.municipalityIndexOf(index));
    return this.finder.settlementCodes(ciudad, [municipality], -1, true).some((other) => other !== index);
  }

  /**
   * Whether a city written in any form is the code's: as its entry reads it (`Cd. Juárez`,
   * `Ecatepec` for *Ecatepec de Morelos*), or, for a city of several municipalities (Ciudad de
   * México), written as the code's municipality (`Iztapalapa` for 09770), as INEGI names the
   * alcaldías' localities and shops and carriers write them, or with the surname of INEGI's
   * name for it (`Uruapan del Progreso`).
   */
  private isCodesCity(code: CodeEntry, cp: string, written: WrittenName): boolean {
    const namesMunicipality = (name: WrittenName) => this.isCodesMunicipality(code, cp, name);
    if (code.isCity(written, namesMunicipality)) return true;
    const place = this.withoutCodesState(code, written.text);
    if (place) return this.isCodesCity(code, cp, place);
    const shared = (this.sharedCities ??= citiesOfSeveralMunicipalities(this.catalog));
    if (shared.has(cityOfState(code.estado, code.ciudad)) && namesMunicipality(written)) return true;
    // With a surname the catalog leaves out (`Uruapan del Progreso`), unless so named a city is another of the catalog's (*San Juan del Río*).
    return code.isCityWithSurname(written) && this.finder.cityMunicipalities(written.text, -1).length === 0;
  }

  /**
   * A place written with the code's state after a comma (`SUCHIATE, CHIAPAS`, `Villa Comaltitlan,
   * Chis.`), as records that keep a place and its state in one field write it: the place before
   * the comma; undefined for any other text (another state after the comma is no reading).
   */
  private withoutCodesState(code: CodeEntry, text: string): WrittenName | undefined {
    const comma = text.lastIndexOf(',');
    if (comma <= 0) return undefined;
    const place = text.slice(0, comma).trim();
    const state = text.slice(comma + 1).trim();
    return place && state && code.isState(this.written.get(state)) ? this.written.get(place) : undefined;
  }

  /** The catalog's cities of several municipalities, asked of the catalog once. */
  private sharedCities: ReadonlySet<string> | undefined;

  /** The catalog's short forms of municipalities, asked of the catalog once. */
  private shortForms: ReadonlyMap<string, readonly number[]> | undefined;

  /** The places of this validator's catalog (read by the one door to a client's catalog, made at the first record that needs it). */
  private finderCache: PlaceFinder | undefined;
  private get finder(): PlaceFinder {
    return (this.finderCache ??= placeFinderOf(catalogOf(this.client)));
  }

  /**
   * The settlement index as data for the other threads of a run (`--jobs`), once a record of
   * this thread has needed it; undefined before (nothing is made for it).
   */
  settlementIndexData(): SettlementIndexData | undefined {
    return this.finderCache?.settlementIndexData();
  }

  /** Takes the settlement index another thread of the run made, so this one does not key every settlement again. */
  takeSettlementIndex(data: SettlementIndexData): void {
    this.finder.takeSettlementIndex(data);
  }

  /** The catalog this validator's client answers from: the one door by which validation and the one-line parser read names. */
  get catalog(): Catalog {
    return this.finder.catalog;
  }

  /**
   * Which field is wrong: the code, when the names given agree with one another and with
   * other codes. A settlement that the catalog has (by its key) in the municipality or state
   * written, under other codes than this one, says the code is wrong; so does a municipality
   * of the state written that this code is not in. The code's own names are then never
   * suggested: the code they name is (`suggestions.cp`), or the codes when several (`codes`).
   * A city written that is this code's is one more name agreeing with it: a settlement of
   * other codes then names only those of that city (`Centro, Mexicali, Mexicali` with 21000
   * is not San Felipe's *Centro Sección II*, 21850).
   */
  private whichField(failed: Failed, cp: string, code: CodeEntry, asentamiento: string, municipio: string, estado: string, ciudad: string): ValidationResult {
    const catalog = this.catalog;
    const index = catalog.codeIndex(cp);
    const finder = this.finder;
    const state = estado.trim() ? finder.state(estado) : -1;
    const municipalities = finder.recordMunicipalities(municipio, state);
    if (municipio.trim() && state >= 0 && municipalities.length === 0) return failed; // the names disagree with one another
    // The code agrees with two of the names given: the third is at fault (unless the names name another code, below).
    let given = 0;
    if (asentamiento.trim()) given++;
    if (municipio.trim()) given++;
    if (estado.trim()) given++;
    let wrong = 0;
    for (const error of failed.errors) if (error.field === 'asentamiento' || error.field === 'municipio' || error.field === 'estado') wrong++;
    const agrees = given - wrong >= 2;
    if (asentamiento.trim() && (municipalities.length || state >= 0)) {
      // A name close to one of the code's own (suggested) is its misspelling: other places' names are not read loosely for it.
      const loosely = failed.suggestions.asentamiento === undefined;
      const named = finder.settlementCodes(asentamiento, municipalities, state, loosely);
      if (named.includes(index)) return failed;
      const cityAgrees = code.ciudad !== '' && ciudad.trim() !== '' && !failed.errors.some((error) => error.field === 'ciudad');
      const bySettlement = cityAgrees && named.length ? finder.ofCity(named, ciudad, state) : named;
      // A common name across a whole state (Centro, in hundreds of codes) says little: judged by the rules below.
      if (bySettlement.length && (municipalities.length || bySettlement.length <= MAX_SUGGESTED_CODES)) {
        return this.codeFromNames(failed, index, bySettlement);
      }
      // The settlement and the state agree with the code: the municipality is the field at fault
      // (the state's settlements are searched only when that decides: two names agreeing already do).
      if (municipalities.length && state >= 0 && (agrees || finder.settlementCodes(asentamiento, [], state, loosely).includes(index))) return failed;
    }
    if (agrees) return failed;
    if (municipalities.length && state >= 0 && !municipalities.includes(catalog.municipalityIndexOf(index))) {
      return this.codeFromNames(failed, index, catalog.codesOfMunicipalities(municipalities, MAX_SUGGESTED_CODES + 1).map((c) => catalog.codeIndex(c)));
    }
    return failed;
  }

  /**
   * A result whose code is missing, is no code, or is not the one the names name: the names'
   * code suggested when they name one, their codes listed when they name a few; the names of
   * the code as written never suggested.
   */
  private codeFromNames(failed: Failed, index: number, named: readonly number[]): ValidationResult {
    const catalog = this.catalog;
    const codes = named.filter((code) => code !== index);
    const result: Failed = { valid: false, errors: failed.errors, suggestions: {} };
    if (failed.warnings) result.warnings = failed.warnings;
    if (codes.length === 1) result.suggestions.cp = catalog.postalCode(codes[0]!);
    else if (codes.length > 1 && codes.length <= MAX_SUGGESTED_CODES) result.codes = codes.map((code) => catalog.postalCode(code));
    return result;
  }

  /**
   * What `--fix` writes for a record judged `result`: its suggestions applied (a code first:
   * a bad code hides the other fields' errors, so the record is judged again under the new
   * one), and kept only when the record is valid with them. A record that stays invalid is
   * written back as it was. Fields without an error are never changed, unless `canonical`:
   * then every value accepted in another form than the catalog's (`N.L.`, `Col. Roma Norte`,
   * `iztapalapa`) is written in the catalog's spelling too.
   */
  fix(cp: unknown, asentamiento: unknown, municipio: unknown, estado: unknown, ciudad: unknown, result: ValidationResult, canonical = false): Fix {
    if (result.valid && !canonical) return FIX_VALID;
    const codes = result.errors.map((error) => error.code_error);
    const values: Record<Field, string> = { cp: text(cp), asentamiento: text(asentamiento), municipio: text(municipio), estado: text(estado), ciudad: text(ciudad) };
    const changes: Fix['changes'] = {};
    let current = result;
    // Two rounds at most: the code's suggestion, then those of the record under the new code.
    for (let round = 0; round < 2 && !current.valid; round++) {
      let applied = false;
      for (const field of FIELDS) {
        const suggestion = current.suggestions[field];
        if (suggestion === undefined || suggestion === values[field]) continue;
        values[field] = changes[field] = suggestion;
        applied = true;
      }
      if (!applied) break;
      const codeChanged = current.suggestions.cp !== undefined;
      current = this.validateFields(values.cp, values.asentamiento, values.municipio, values.estado, values.ciudad);
      if (codeChanged) for (const error of current.errors) codes.push(error.code_error);
    }
    // Never worse: what is not valid with the suggestions is written back as it was.
    if (!current.valid) return { status: 'invalid', codes, changes: {} };
    if (canonical) this.canonicalChanges(this.lookup(values.cp), values, changes);
    const status = result.valid ? 'valid' : 'fixed';
    if (status === 'valid' && Object.keys(changes).length === 0) return FIX_VALID;
    return { status, codes, changes };
  }

  /** Adds the catalog's spelling of each value accepted in another form (not changed already, not empty). */
  private canonicalChanges(code: CodeEntry, values: Record<Field, string>, changes: Fix['changes']): void {
    if (code.error) return;
    const spellings = { estado: code.estado, municipio: code.municipio, ciudad: code.ciudad } as const;
    for (const field of ['estado', 'municipio', 'ciudad'] as const) {
      const value = values[field];
      if (changes[field] === undefined && value.trim() && value !== spellings[field] && spellings[field]) changes[field] = spellings[field];
    }
    const asentamiento = values.asentamiento;
    if (changes.asentamiento === undefined && asentamiento.trim() && !code.hasName(asentamiento)) {
      const spelling = code.spellingOf(asentamiento);
      if (spelling !== undefined) changes.asentamiento = spelling;
    }
  }
}

const defaultMapper = recordMapper();

type Failed = ValidationResult & { valid: false };

/** A place written longer than this (no catalog name is) is read as no locality of a code. */
const MAX_PLACE_CHARS = 256;

/** `C.P.` (or `CP`, `C. P.:`) written in front of a code, in a field that holds only the code. */
const CODE_MARK = /^c\.?\s?p\.?\s?:?\s*/iu;

/** Adds a field's error (and its suggestion, if any) to a record's result, made at its first error. */
function fail(failed: Failed | undefined, field: Field, errorCode: keyof typeof VALIDATION_ERRORS, suggestion: string | undefined): Failed {
  const result: Failed = failed ?? { valid: false, errors: [], suggestions: {} };
  result.errors.push({ field, code_error: errorCode, error_message: VALIDATION_ERRORS[errorCode] });
  if (suggestion) result.suggestions[field] = suggestion;
  return result;
}

/** The value of a 5-ASCII-digit code, else -1. */
function fiveDigits(cp: string): number {
  if (cp.length !== 5) return -1;
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const digit = cp.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
const validators = new WeakMap<CpmxClient, AddressValidator>();

export function validatorFor(client: CpmxClient): AddressValidator {
  let validator = validators.get(client);
  if (!validator) {
    validator = new AddressValidator(client);
    validators.set(client, validator);
  }
  return validator;
}

/**
 * Validates one address record against the catalog the client answers from. Its keys are
 * read by the same names as the command's columns (`colonia`, `codigo_postal`, ...); errors
 * and suggestions name the fields (`asentamiento`, `cp`, ...).
 */
export function validateAddress(client: CpmxClient, record: AddressRecord): ValidationResult {
  return validatorFor(client).validate(record);
}

/**
 * Whether the type written in front is a word of the catalog's name read (`Industrial San
 * Francisco` for *Parque Industrial San Francisco*, `Villa del Mar` for *Residencial Villa del
 * Mar*): then it is no type set aside, and the name after it no name of its own.
 */
function typeInName(written: string, afterType: string, read: string | undefined): boolean {
  if (read === undefined) return false;
  const whole = settlementKey(written);
  const rest = settlementKey(afterType);
  const type = whole.endsWith(rest) ? whole.slice(0, whole.length - rest.length).trim() : '';
  return type !== '' && settlementKey(read).includes(type);
}

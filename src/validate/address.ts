/**
 * Address validation: is this record's settlement, municipality, state and city right for
 * its postal code, and if not, what is the right value probably? The code is checked
 * through the router (`infoCp` simplified), so its errors are the contract's own.
 */
import { distance } from 'fastest-levenshtein';
import type { CpmxClient } from '../client/client.js';
import { retiredReason, type RetiredCode } from '../core/catalog-history.js';
import { foldForMatch, municipalityKeys, nameKey, SettlementMatcher, splitSettlementType, stateKeyOf, stateSpellings } from '../core/names.js';
import { DISTINGUISHING_TYPES } from '../core/name-forms.js';
import { FIELDS, recordMapper, type Field, type FieldValues } from './fields.js';
import { Remembered } from './remembered.js';

export { FIELDS, type Field } from './fields.js';

/** What a record's field may hold: text, or a number as spreadsheets and JSON give codes. */
export type FieldValue = string | number | null | undefined;

/**
 * An address as typed by people: only the code is required. Keys are read by the same names
 * as CSV columns (`cp` or `codigo_postal`, `asentamiento` or `colonia`, `municipio` or
 * `alcaldia`, ...); other keys are ignored.
 */
export interface AddressRecord {
  cp?: FieldValue;
  codigo_postal?: FieldValue;
  asentamiento?: FieldValue;
  colonia?: FieldValue;
  municipio?: FieldValue;
  alcaldia?: FieldValue;
  estado?: FieldValue;
  ciudad?: FieldValue;
  [name: string]: unknown;
}

export interface ValidationError {
  /** The field at fault; null when the record itself could not be read (130). */
  field: Field | null;
  code_error: number;
  error_message: string;
  /**
   * Why: for 130, why the record could not be read (`expected 5 fields, found 4`, ...); for 124,
   * `retired since 2019-03-01; last in Tuxtla Gutiérrez, Chiapas (Centro, ...)`.
   */
  reason?: string;
  /** 124 only: when the code was retired and where the last catalog that had it put it. */
  retired?: RetiredCode;
}

export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
  /** The probably right value of a field at fault, where there is a good one. */
  suggestions: Partial<Record<Field, string>>;
}

/** Validation's own codes, beside the contract's 101, 102, 104 and 105 for the code. */
export const VALIDATION_ERRORS = {
  120: 'El estado no corresponde al cp',
  121: 'El municipio no corresponde al cp',
  122: 'El asentamiento no pertenece al cp',
  123: 'La ciudad no corresponde al cp',
  124: 'El cp fue dado de baja',
  130: 'Registro ilegible',
} as const;
// Frozen: the exported table is what every result says, for every caller.
Object.freeze(VALIDATION_ERRORS);

/** Below this similarity (1 - distance / longer length) no settlement is suggested. */
export const SUGGESTION_THRESHOLD = 0.7;

/** The result of a record that cannot be read, with the reason. */
export function unreadable(reason: string): ValidationResult {
  return { valid: false, errors: [{ field: null, code_error: 130, error_message: VALIDATION_ERRORS[130], reason }], suggestions: {} };
}

/**
 * Folded forms of the catalog's own names (municipalities, cities), each made once: keys are
 * the catalog's strings, so this is bounded by the catalog, never by the input.
 */
class CatalogFolds {
  private readonly folded = new Map<string, string>();

  of(name: string): string {
    let folded = this.folded.get(name);
    if (folded === undefined) {
      folded = foldForMatch(name);
      this.folded.set(name, folded);
    }
    return folded;
  }
}

/**
 * What validation needs of a code: one small object per code (32,166 of them, in each
 * thread), the answer's values as written, and the names' folded forms made only when a
 * record first needs them (most records match as written).
 */
class CodeEntry {
  /** The folded names, as `nameLookup` joins them. */
  private foldedLookup: string | Set<string> | undefined;
  /** The folded names in order, kept only for codes with many (the joined form holds the rest). */
  private foldedList: string[] | undefined;
  /**
   * The names as one string, each between SEPARATORs, or a Set for codes with very many:
   * one object to read per record instead of one per name (most codes have a handful).
   */
  private readonly nameLookup: string | Set<string>;

  /** Reads settlements written otherwise than the catalog writes them; made at the first such record. */
  private matcher: SettlementMatcher | undefined;

  constructor(
    readonly error: ValidationError | undefined,
    readonly names: string[],
    readonly estado: string,
    readonly municipio: string,
    readonly ciudad: string,
    /** The state's catalog name and aliases, folded; shared by the codes of a state. */
    readonly stateNames: Set<string>,
    private readonly folds: CatalogFolds | undefined,
    /** The settlements' types, in the order of `names`, asked only when a name needs reading. */
    private readonly types: () => readonly string[] = () => [],
  ) {
    this.nameLookup = nameLookup(names);
  }

  /** The catalog's spelling of an accepted settlement: the name it folds to, else the one it reads as. */
  spellingOf(written: string): string | undefined {
    const folded = this.foldedNames().indexOf(foldForMatch(written));
    return folded >= 0 ? this.names[folded] : this.readSettlement(written);
  }

  /** The catalog's spelling of the settlement `written` names in a form people write (`Col. ...`, `Sta.`), or undefined. */
  readSettlement(written: string): string | undefined {
    // The common case first: a type in front of the catalog's name (`COL. GRANJAS ESMERALDA`),
    // found among the folded names this entry already has; the code's names are read (and
    // the matcher made) only for what that does not find.
    const split = splitSettlementType(written);
    if (split.type && !DISTINGUISHING_TYPES.includes(split.type)) {
      const found = this.foldedNames().indexOf(foldForMatch(split.name));
      if (found >= 0) return this.names[found];
    }
    return (this.matcher ??= new SettlementMatcher(this.names, this.types())).match(written);
  }

  /** Whether a state written in any form (`N.L.`, `NLE`, `19`) is this code's state. */
  isState(written: WrittenName): boolean {
    if (this.stateNames.has(written.folded)) return true;
    const key = stateKeyOfWritten(written);
    return key >= 0 && key === stateKeyOf(this.estado);
  }

  /** The keys of the catalog's municipality and city names (`nameKey`), made at the first record that needs them. */
  private municipioKey: string | undefined;
  private ciudadKey: string | undefined;

  /** Whether a municipality written in any form (`Alc. Iztapalapa`, `Gral. Escobedo`) is this code's. */
  isMunicipality(written: WrittenName): boolean {
    return written.folded === this.foldedMunicipio || keysOf(written).includes((this.municipioKey ??= nameKey(this.municipio)));
  }

  /** Whether a city written in any form (`Cd. Juárez`, `CDMX` for the city of Mexico City) is this code's city. */
  isCity(written: WrittenName): boolean {
    if (written.folded === this.foldedCiudad) return true;
    if (this.ciudad && keysOf(written).includes((this.ciudadKey ??= nameKey(this.ciudad)))) return true;
    const city = stateKeyOf(this.ciudad);
    return city >= 0 && stateKeyOfWritten(written) === city;
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
    return typeof lookup === 'string' ? lookup.slice(1, -1).split(SEPARATOR) : this.foldedList!;
  }

  hasFoldedName(folded: string): boolean {
    return inLookup(this.folded(), folded);
  }

  get foldedMunicipio(): string {
    return this.folds!.of(this.municipio);
  }

  get foldedCiudad(): string {
    return this.folds!.of(this.ciudad);
  }
}

/**
 * A state, municipality or city name as written, read once per distinct spelling (they repeat
 * far more than they vary): its fold, and its readings made only when a record needs them.
 */
interface WrittenName {
  readonly text: string;
  readonly folded: string;
  /** `stateKeyOf` the text, once asked. */
  stateKey?: number;
  /** `municipalityKeys` of the text, once asked. */
  keys?: string[];
}

function readWritten(text: string): WrittenName {
  return { text, folded: foldForMatch(text) };
}

function stateKeyOfWritten(written: WrittenName): number {
  return (written.stateKey ??= stateKeyOf(written.text));
}

function keysOf(written: WrittenName): string[] {
  return (written.keys ??= municipalityKeys(written.text));
}

/** Between names in a joined lookup: a control character no name holds. */
const SEPARATOR = '\u0001';
const MANY_NAMES = 32;

function nameLookup(names: readonly string[]): string | Set<string> {
  // A name holding the separator itself would make the joined form ambiguous.
  if (names.length > MANY_NAMES || names.some((name) => name.includes(SEPARATOR))) return new Set(names);
  return SEPARATOR + names.join(SEPARATOR) + SEPARATOR;
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

const NO_NAMES: string[] = [];
const NO_STATES = new Set<string>();

/** What `--fix` makes of a record: its status, the codes found, and the values to write instead. */
export interface Fix {
  status: 'valid' | 'fixed' | 'invalid';
  /** Every code found, including those found once a damaged code was corrected. */
  codes: number[];
  changes: Partial<Record<Field, string>>;
}

const FIX_VALID: Fix = Object.freeze({ status: 'valid', codes: [], changes: Object.freeze({}) }) as Fix;

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
  private readonly folds = new CatalogFolds();
  /** States, municipalities and cities as written, each read once. */
  private readonly written = new Remembered(readWritten);

  constructor(private readonly client: CpmxClient) {}

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
      const types = () => {
        const full = this.client.infoCp(cp);
        return Array.isArray(full) ? full.map((record) => record.response.tipo_asentamiento) : [];
      };
      return new CodeEntry(undefined, r.asentamiento, r.estado, r.municipio, r.ciudad, this.stateNames(r.estado), this.folds, types);
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

  /** A code that the record probably meant, when `cp` is a spreadsheet's version of one. */
  private correctedCode(cp: string): string | undefined {
    if (cp.length > 32) return undefined;
    const trimmed = cp.trim().replace(/\.0+$/, '');
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
      const suggestion = code.error.code_error === 101 ? undefined : this.correctedCode(cp);
      return { valid: false, errors: [code.error], suggestions: suggestion ? { cp: suggestion } : {} };
    }
    // Each field is first compared as written (the common case in exported data), and folded
    // only when that fails. Nothing is allocated for a valid record.
    let failed: Failed | undefined;
    const estado = text(estadoValue);
    // Past the folds, each field is read in the forms people write (core/names): only then.
    if (estado !== code.estado && estado.trim() && !code.isState(this.written.get(estado))) failed = fail(failed, 'estado', 120, code.estado);
    const municipio = text(municipioValue);
    if (municipio !== code.municipio && municipio.trim() && !code.isMunicipality(this.written.get(municipio))) failed = fail(failed, 'municipio', 121, code.municipio);
    const asentamiento = text(asentamientoValue);
    if (asentamiento && !code.hasName(asentamiento) && asentamiento.trim()) {
      const given = foldForMatch(asentamiento);
      if (!code.hasFoldedName(given) && code.readSettlement(asentamiento) === undefined) failed = fail(failed, 'asentamiento', 122, suggestSettlement(asentamiento, given, code));
    }
    const ciudad = text(ciudadValue);
    if (ciudad !== code.ciudad && ciudad.trim() && !code.isCity(this.written.get(ciudad))) failed = fail(failed, 'ciudad', 123, code.ciudad || undefined);
    return failed ?? VALID;
  }

  /**
   * What `--fix` writes for a record judged `result`: every suggestion applied, and the record
   * checked again under a corrected code (a bad code hides the other fields' errors). Fields
   * without an error are never changed, unless `canonical`: then every value accepted in
   * another form than the catalog's (`N.L.`, `Col. Roma Norte`, `iztapalapa`) is written in
   * the catalog's spelling too.
   */
  fix(cp: unknown, asentamiento: unknown, municipio: unknown, estado: unknown, ciudad: unknown, result: ValidationResult, canonical = false): Fix {
    if (result.valid && !canonical) return FIX_VALID;
    const codes = result.errors.map((error) => error.code_error);
    const changes: Fix['changes'] = {};
    let current = result;
    let code = text(cp);
    if (!current.valid && current.errors[0]!.field === 'cp') {
      const corrected = current.suggestions.cp;
      if (!corrected) return { status: 'invalid', codes, changes };
      changes.cp = code = corrected;
      current = this.validateFields(corrected, asentamiento, municipio, estado, ciudad);
      for (const error of current.errors) codes.push(error.code_error);
    }
    let unfixed = false;
    for (const error of current.errors) {
      const suggestion = error.field ? current.suggestions[error.field] : undefined;
      if (error.field && suggestion !== undefined) changes[error.field] = suggestion;
      else unfixed = true;
    }
    if (canonical) this.canonicalChanges(this.lookup(code), { asentamiento, municipio, estado, ciudad }, current, changes);
    const status = result.valid ? 'valid' : unfixed ? 'invalid' : 'fixed';
    if (status === 'valid' && Object.keys(changes).length === 0) return FIX_VALID;
    return { status, codes, changes };
  }

  /** Adds the catalog's spelling of each value accepted in another form (no error, not empty). */
  private canonicalChanges(code: CodeEntry, values: Record<'asentamiento' | 'municipio' | 'estado' | 'ciudad', unknown>, result: ValidationResult, changes: Fix['changes']): void {
    if (code.error) return;
    const faulty = new Set(result.errors.map((error) => error.field));
    const spellings = { estado: code.estado, municipio: code.municipio, ciudad: code.ciudad } as const;
    for (const field of ['estado', 'municipio', 'ciudad'] as const) {
      const value = text(values[field]);
      if (!faulty.has(field) && value.trim() && value !== spellings[field] && spellings[field]) changes[field] = spellings[field];
    }
    const asentamiento = text(values.asentamiento);
    if (!faulty.has('asentamiento') && asentamiento.trim() && !code.hasName(asentamiento)) {
      const spelling = code.spellingOf(asentamiento);
      if (spelling !== undefined) changes.asentamiento = spelling;
    }
  }
}

const defaultMapper = recordMapper();

type Failed = ValidationResult & { valid: false };

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

/** Shared by every valid result (frozen: results are values, not workspaces). */
const NO_ERRORS = Object.freeze<ValidationError[]>([]) as ValidationError[];
const NO_SUGGESTIONS: ValidationResult['suggestions'] = Object.freeze({});
export const VALID: ValidationResult = Object.freeze({ valid: true, errors: NO_ERRORS, suggestions: NO_SUGGESTIONS });

/** A field's value as text (a number as written: `1000`). */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** The settlement of the code nearest to what was written, with or without the type written in front. */
function suggestSettlement(written: string, folded: string, code: CodeEntry): string | undefined {
  const split = splitSettlementType(written);
  return closest(folded, code) ?? (split.type ? closest(foldForMatch(split.name), code) : undefined);
}

/** The settlement of the code nearest to `given` by Levenshtein distance, if near enough. */
function closest(given: string, code: CodeEntry): string | undefined {
  const foldedNames = code.foldedNames();
  let best = -1;
  let bestSimilarity = 0;
  for (let i = 0; i < foldedNames.length; i++) {
    const name = foldedNames[i]!;
    const longer = Math.max(given.length, name.length, 1);
    // The distance is at least the difference in length: a name that cannot reach the
    // threshold is not measured (and a huge value costs nothing).
    if (1 - Math.abs(given.length - name.length) / longer < SUGGESTION_THRESHOLD) continue;
    const similarity = 1 - distance(given, name) / longer;
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = i;
    }
  }
  return best >= 0 && bestSimilarity >= SUGGESTION_THRESHOLD ? code.names[best] : undefined;
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


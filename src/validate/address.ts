/**
 * Address validation: is this record's settlement, municipality, state and city right for
 * its postal code, and if not, what is the right value probably? The code is checked
 * through the router (`infoCp` simplified), so its errors are the contract's own.
 */
import { distance } from 'fastest-levenshtein';
import type { CpmxClient } from '../client/client.js';
import { foldForMatch, stateSpellings } from '../core/names.js';

/** The fields of an address record, in the order their errors are reported. */
export const FIELDS = ['cp', 'estado', 'municipio', 'asentamiento', 'ciudad'] as const;
export type Field = (typeof FIELDS)[number];

/** An address as typed by people: only `cp` is required. */
export interface AddressRecord {
  cp: string | number | null | undefined;
  asentamiento?: string | number | null | undefined;
  municipio?: string | number | null | undefined;
  estado?: string | number | null | undefined;
  ciudad?: string | number | null | undefined;
}

export interface ValidationError {
  /** The field at fault; null when the record itself could not be read (130). */
  field: Field | null;
  code_error: number;
  error_message: string;
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
  130: 'Registro ilegible',
} as const;

/** Below this similarity (1 - distance / longer length) no settlement is suggested. */
export const SUGGESTION_THRESHOLD = 0.7;

const CACHE_LIMIT = 65_536;

/**
 * What validation needs of a code: one object per code, the answer's values as written, and
 * their folded forms made only when a record first needs them (most records match as written).
 */
class CodeEntry {
  private foldedNameList: string[] | undefined;
  private foldedNameLookup: string | Set<string> | undefined;
  private foldedMunicipioValue: string | undefined;
  private foldedCiudadValue: string | undefined;
  /**
   * The names as one string, each between SEPARATORs, or a Set for codes with very many:
   * one object to read per record instead of one per name (most codes have a handful).
   */
  private readonly nameLookup: string | Set<string>;

  constructor(
    readonly error: ValidationError | undefined,
    readonly names: string[],
    readonly estado: string,
    readonly municipio: string,
    readonly ciudad: string,
    /** The state's catalog name and aliases, folded; shared by the codes of a state. */
    readonly stateNames: Set<string>,
    private readonly fold: (text: string) => string,
  ) {
    this.nameLookup = nameLookup(names);
  }

  hasName(name: string): boolean {
    return inLookup(this.nameLookup, name);
  }

  foldedNames(): string[] {
    return (this.foldedNameList ??= this.names.map(this.fold));
  }

  hasFoldedName(folded: string): boolean {
    return inLookup((this.foldedNameLookup ??= nameLookup(this.foldedNames())), folded);
  }

  get foldedMunicipio(): string {
    return (this.foldedMunicipioValue ??= this.fold(this.municipio));
  }

  get foldedCiudad(): string {
    return (this.foldedCiudadValue ??= this.fold(this.ciudad));
  }
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

/** A validator bound to one client, with bounded memos of folded text and code facts. */
export class AddressValidator {
  private readonly codes = new Map<string, CodeEntry>();
  /** Entries of 5-digit codes by their number: no string hashing for the common case. */
  private readonly byNumber: (CodeEntry | undefined)[] = new Array<CodeEntry | undefined>(100_000);
  private readonly states = new Map<string, Set<string>>();
  /** Folding is one pass over Latin-1 text: cheaper than hashing the text to look it up. */
  private readonly fold = foldForMatch;

  constructor(private readonly client: CpmxClient) {}

  private stateNames(estado: string): Set<string> {
    let names = this.states.get(estado);
    if (!names) {
      names = new Set(stateSpellings(estado).map(this.fold));
      this.states.set(estado, names);
    }
    return names;
  }

  private lookup(cp: string): CodeEntry {
    const number = fiveDigits(cp);
    let entry = number < 0 ? this.codes.get(cp) : this.byNumber[number];
    if (entry) return entry;
    const body = this.client.infoCp(cp, { type: 'simplified' });
    if (body.error) {
      const error: ValidationError = { field: 'cp', code_error: body.code_error, error_message: body.error_message };
      entry = new CodeEntry(error, NO_NAMES, '', '', '', NO_STATES, this.fold);
    } else {
      const r = body.response;
      entry = new CodeEntry(undefined, r.asentamiento, r.estado, r.municipio, r.ciudad, this.stateNames(r.estado), this.fold);
    }
    if (number >= 0) this.byNumber[number] = entry;
    else {
      if (this.codes.size >= CACHE_LIMIT) this.codes.clear();
      this.codes.set(cp, entry);
    }
    return entry;
  }

  /** A code that the record probably meant, when `cp` is a spreadsheet's version of one. */
  private correctedCode(cp: string): string | undefined {
    const candidates = new Set<string>();
    const trimmed = cp.trim().replace(/\.0+$/, '');
    candidates.add(trimmed);
    if (/^\d{4}$/.test(trimmed)) candidates.add(`0${trimmed}`);
    candidates.delete(cp);
    for (const candidate of candidates) {
      if (/^\d{5}$/.test(candidate) && !this.lookup(candidate).error) return candidate;
    }
    return undefined;
  }

  validate(record: AddressRecord): ValidationResult {
    return this.validateFields(record.cp, record.asentamiento, record.municipio, record.estado, record.ciudad);
  }

  /** The same check on the fields themselves (the CSV path has no record object to build). */
  validateFields(cpValue: unknown, asentamientoValue: unknown, municipioValue: unknown, estadoValue: unknown, ciudadValue: unknown): ValidationResult {
    const cp = text(cpValue);
    const code = this.lookup(cp);
    if (code.error) {
      const suggestion = code.error.code_error === 101 ? undefined : this.correctedCode(cp);
      return { valid: false, errors: [code.error], suggestions: suggestion ? { cp: suggestion } : {} };
    }
    let errors: ValidationError[] | undefined;
    let suggestions: ValidationResult['suggestions'] | undefined;
    const fail = (field: Field, errorCode: keyof typeof VALIDATION_ERRORS, suggestion: string | undefined) => {
      (errors ??= []).push({ field, code_error: errorCode, error_message: VALIDATION_ERRORS[errorCode] });
      if (suggestion) (suggestions ??= {})[field] = suggestion;
    };
    // Each field is first compared as written (the common case in exported data), and folded
    // only when that fails.
    const estado = text(estadoValue);
    if (estado !== code.estado && estado.trim() && !code.stateNames.has(this.fold(estado))) fail('estado', 120, code.estado);
    const municipio = text(municipioValue);
    if (municipio !== code.municipio && municipio.trim() && this.fold(municipio) !== code.foldedMunicipio) fail('municipio', 121, code.municipio);
    const asentamiento = text(asentamientoValue);
    if (asentamiento && !code.hasName(asentamiento) && asentamiento.trim()) {
      const given = this.fold(asentamiento);
      if (!code.hasFoldedName(given)) fail('asentamiento', 122, closest(given, code));
    }
    const ciudad = text(ciudadValue);
    if (ciudad !== code.ciudad && ciudad.trim() && this.fold(ciudad) !== code.foldedCiudad) fail('ciudad', 123, code.ciudad || undefined);
    return errors ? { valid: false, errors, suggestions: suggestions ?? {} } : VALID;
  }
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
const NO_ERRORS: ValidationError[] = Object.freeze([]) as unknown as ValidationError[];
const NO_SUGGESTIONS: ValidationResult['suggestions'] = Object.freeze({});
const VALID: ValidationResult = Object.freeze({ valid: true, errors: NO_ERRORS, suggestions: NO_SUGGESTIONS });

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** The settlement of the code nearest to `given` by Levenshtein distance, if near enough. */
function closest(given: string, code: CodeEntry): string | undefined {
  const foldedNames = code.foldedNames();
  let best = -1;
  let bestSimilarity = 0;
  for (let i = 0; i < foldedNames.length; i++) {
    const name = foldedNames[i]!;
    const similarity = 1 - distance(given, name) / Math.max(given.length, name.length, 1);
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = i;
    }
  }
  return best >= 0 && bestSimilarity >= SUGGESTION_THRESHOLD ? code.names[best] : undefined;
}

const validators = new WeakMap<CpmxClient, AddressValidator>();

function validatorFor(client: CpmxClient): AddressValidator {
  let validator = validators.get(client);
  if (!validator) {
    validator = new AddressValidator(client);
    validators.set(client, validator);
  }
  return validator;
}

/** Validates one address record against the catalog the client answers from. */
export function validateAddress(client: CpmxClient, record: AddressRecord): ValidationResult {
  return validatorFor(client).validate(record);
}

export { validatorFor };

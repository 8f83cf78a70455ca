/**
 * Address validation: is this record's settlement, municipality, state and city right for
 * its postal code, and if not, what is the right value probably? The code is checked
 * through the router (`infoCp` simplified), so its errors are the contract's own.
 */
import { createRequire } from 'node:module';
import type { CpmxClient } from './client.js';
import { STATE_ALIASES, type Envelope, type SimplifiedPostalCodeRecord } from './copomex.js';

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

/** Levenshtein distance from fastest-levenshtein, loaded on the first suggestion needed. */
let levenshtein: ((a: string, b: string) => number) | undefined;
function distance(a: string, b: string): number {
  levenshtein ??= (createRequire(import.meta.url)('fastest-levenshtein') as { distance: (a: string, b: string) => number }).distance;
  return levenshtein(a, b);
}

/** Folds for matching: case, accents, punctuation and runs of white space. */
export function foldForMatch(text: string): string {
  // Pure ASCII, the common case, in one pass: letters lowered, digits kept, anything else
  // (punctuation, symbols, white space) a single space, trimmed.
  let out = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c > 0x7e) return foldUnicode(text);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (space && out) out += ' ';
      space = false;
      out += String.fromCharCode(c);
    } else {
      space = true;
    }
  }
  return out;
}

function foldUnicode(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What validation needs of a code, folded once. */
interface CodeFacts {
  names: string[];
  foldedNames: string[];
  foldedNameSet: Set<string>;
  estado: string;
  municipio: string;
  ciudad: string;
  /** The state's catalog name and its contract aliases, folded. */
  stateNames: Set<string>;
  foldedMunicipio: string;
  foldedCiudad: string;
}

/** One shape for both outcomes, so the memo's reads stay monomorphic. */
interface CodeLookup {
  facts: CodeFacts | undefined;
  error: ValidationError | undefined;
}

/** A validator bound to one client, with bounded memos of folded text and code facts. */
export class AddressValidator {
  private readonly folded = new Map<string, string>();
  private readonly codes = new Map<string, CodeLookup>();
  /** Facts of 5-digit codes by their number: no string hashing for the common case. */
  private readonly byNumber: (CodeLookup | undefined)[] = new Array<CodeLookup | undefined>(100_000);
  private readonly aliases = new Map<string, string[]>(Object.entries(STATE_ALIASES).map(([state, list]) => [state, [...list]]));

  constructor(private readonly client: CpmxClient) {}

  private fold(text: string): string {
    let folded = this.folded.get(text);
    if (folded === undefined) {
      if (this.folded.size >= CACHE_LIMIT) this.folded.clear();
      folded = foldForMatch(text);
      this.folded.set(text, folded);
    }
    return folded;
  }

  private lookup(cp: string): CodeLookup {
    const number = fiveDigits(cp);
    let found = number < 0 ? this.codes.get(cp) : this.byNumber[number];
    if (found) return found;
    const body = this.client.infoCp(cp, { type: 'simplified' }) as Envelope<SimplifiedPostalCodeRecord>;
    if (body.error) {
      found = { facts: undefined, error: { field: 'cp', code_error: body.code_error, error_message: body.error_message } };
    } else {
      const r = body.response;
      const foldedNames = r.asentamiento.map((name) => this.fold(name));
      found = {
        error: undefined,
        facts: {
          names: r.asentamiento,
          foldedNames,
          foldedNameSet: new Set(foldedNames),
          estado: r.estado,
          municipio: r.municipio,
          ciudad: r.ciudad,
          stateNames: new Set([r.estado, ...(this.aliases.get(r.estado) ?? [])].map((name) => this.fold(name))),
          foldedMunicipio: this.fold(r.municipio),
          foldedCiudad: this.fold(r.ciudad),
        },
      };
    }
    if (number >= 0) this.byNumber[number] = found;
    else {
      if (this.codes.size >= CACHE_LIMIT) this.codes.clear();
      this.codes.set(cp, found);
    }
    return found;
  }

  /** A code that the record probably meant, when `cp` is a spreadsheet's version of one. */
  private correctedCode(cp: string): string | undefined {
    const candidates = new Set<string>();
    const trimmed = cp.trim().replace(/\.0+$/, '');
    candidates.add(trimmed);
    if (/^\d{4}$/.test(trimmed)) candidates.add(`0${trimmed}`);
    candidates.delete(cp);
    for (const candidate of candidates) {
      if (/^\d{5}$/.test(candidate) && this.lookup(candidate).facts) return candidate;
    }
    return undefined;
  }

  validate(record: AddressRecord): ValidationResult {
    const cp = text(record.cp);
    const found = this.lookup(cp);
    const facts = found.facts;
    if (!facts) {
      const error = found.error!;
      const suggestion = error.code_error === 101 ? undefined : this.correctedCode(cp);
      return { valid: false, errors: [error], suggestions: suggestion ? { cp: suggestion } : {} };
    }
    let errors: ValidationError[] | undefined;
    let suggestions: ValidationResult['suggestions'] | undefined;
    const fail = (field: Field, code: keyof typeof VALIDATION_ERRORS, suggestion: string | undefined) => {
      (errors ??= []).push({ field, code_error: code, error_message: VALIDATION_ERRORS[code] });
      if (suggestion) (suggestions ??= {})[field] = suggestion;
    };
    // Each field is first compared as written (the common case in exported data), and folded
    // only when that fails.
    const estado = text(record.estado);
    if (estado !== facts.estado && estado.trim() && !facts.stateNames.has(this.fold(estado))) fail('estado', 120, facts.estado);
    const municipio = text(record.municipio);
    if (municipio !== facts.municipio && municipio.trim() && this.fold(municipio) !== facts.foldedMunicipio) fail('municipio', 121, facts.municipio);
    const asentamiento = text(record.asentamiento);
    if (asentamiento && !facts.names.includes(asentamiento) && asentamiento.trim()) {
      const given = this.fold(asentamiento);
      if (!facts.foldedNameSet.has(given)) fail('asentamiento', 122, closest(given, facts));
    }
    const ciudad = text(record.ciudad);
    if (ciudad !== facts.ciudad && ciudad.trim() && this.fold(ciudad) !== facts.foldedCiudad) fail('ciudad', 123, facts.ciudad || undefined);
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
function closest(given: string, facts: CodeFacts): string | undefined {
  let best = -1;
  let bestSimilarity = 0;
  for (let i = 0; i < facts.foldedNames.length; i++) {
    const name = facts.foldedNames[i]!;
    const similarity = 1 - distance(given, name) / Math.max(given.length, name.length, 1);
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = i;
    }
  }
  return best >= 0 && bestSimilarity >= SUGGESTION_THRESHOLD ? facts.names[best] : undefined;
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

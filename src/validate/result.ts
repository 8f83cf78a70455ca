/**
 * What validation says of a record: its errors, warnings and suggestions, the table of
 * validation's own codes, and the shared results (valid, unreadable). Plain values and types,
 * imported by the validator and by everything that writes its results.
 */
import type { RetiredCode } from '../core/catalog-history.js';
import type { Field } from './fields.js';

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
  /**
   * When the code is missing, is no code, or disagrees with names that agree with one another
   * and with several other codes: those codes (at most MAX_SUGGESTED_CODES), none suggested.
   */
  codes?: string[];
  /** What the catalog cannot check (125: a city where the code has none); the record stays valid. */
  warnings?: ValidationError[];
}

/** Validation's own codes, beside the contract's 101, 102, 104 and 105 for the code. */
export const VALIDATION_ERRORS = {
  120: 'El estado no corresponde al cp',
  121: 'El municipio no corresponde al cp',
  122: 'El asentamiento no pertenece al cp',
  123: 'La ciudad no corresponde al cp',
  124: 'El cp fue dado de baja',
  125: 'La ciudad no se puede verificar: el cp no tiene ciudad',
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

/** At most this many codes are listed in a result's `codes`. */
export const MAX_SUGGESTED_CODES = 5;

/** Shared by every valid result (frozen: results are values, not workspaces). */
const NO_ERRORS: ValidationError[] = [];
Object.freeze(NO_ERRORS);
const NO_SUGGESTIONS: ValidationResult['suggestions'] = Object.freeze({});
export const VALID: ValidationResult = Object.freeze({ valid: true, errors: NO_ERRORS, suggestions: NO_SUGGESTIONS });

/** A field's value as text (a number as written: `1000`). */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : String(value);
}

/** A record that is right, with a city the catalog cannot check (its code has no city): valid, with warning 125. */
export const CITY_UNVERIFIABLE: ValidationResult = Object.freeze({
  valid: true,
  errors: NO_ERRORS,
  suggestions: NO_SUGGESTIONS,
  warnings: frozen([Object.freeze({ field: 'ciudad', code_error: 125, error_message: VALIDATION_ERRORS[125] })]),
});

/** An array frozen in place (its type kept: results' arrays are typed mutable for those who build them). */
function frozen<T>(items: T[]): T[] {
  Object.freeze(items);
  return items;
}

/** What `--fix` makes of a record: its status, the codes found, and the values to write instead. */
export interface Fix {
  /** `fixed`: valid as written back, with `changes`; `invalid`: written back as it was (no changes). */
  status: 'valid' | 'fixed' | 'invalid';
  /** Every code found, including those found once a damaged code was corrected. */
  codes: number[];
  changes: Partial<Record<Field, string>>;
}

export const FIX_VALID: Fix = Object.freeze({ status: 'valid', codes: [], changes: Object.freeze({}) }) as Fix;

/** A result as written (NDJSON results, the library's objects, MCP): `codes` and `warnings` only when it has them. */
export function resultFields(result: ValidationResult): ValidationResult {
  const fields: ValidationResult = { valid: result.valid, errors: result.errors, suggestions: result.suggestions };
  if (result.codes) fields.codes = result.codes;
  if (result.warnings) fields.warnings = result.warnings;
  return fields;
}

/**
 * `cpmx/validate`: address validation for data pipelines, as its own entry point so that
 * the lookup entry (`cpmx`) stays small and fast to load.
 *
 * ```ts
 * import { createClient } from 'cpmx';
 * import { validateAddress, validateStream } from 'cpmx/validate';
 * ```
 */
export {
  FIELDS,
  SUGGESTION_THRESHOLD,
  VALIDATION_ERRORS,
  validateAddress,
  type AddressRecord,
  type Field,
  type FieldValue,
  type ValidationError,
  type ValidationResult,
} from './address.js';
export { foldForMatch } from '../core/names.js';
export { ADDRESS_PARTS, MAX_CODES, parseAddress, type AddressPart, type ParsedAddress } from './parse.js';
export { ENCODINGS, EncodingError, type Encoding } from './encoding.js';
export { InputError } from './errors.js';
export { COLUMN_NAMES } from './fields.js';
export { validateStream, type InputFormat, type LineResult, type ValidateStreamOptions } from './stream.js';

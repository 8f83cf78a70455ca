/**
 * cpmx: Mexican postal codes answered offline, by the COPOMEX API's contract.
 *
 * ```ts
 * import { createClient } from 'cpmx';
 * const cpmx = createClient({ token: 'my-app' });
 * cpmx.infoCp('09810', { type: 'simplified' });
 * ```
 */
export { createClient, type ClientOptions, type CpmxClient } from './client.js';
export {
  ERRORS,
  TEST_TOKEN,
  STATE_ALIASES,
  failure,
  foldStateName,
  isSuccess,
  route,
  success,
  type Answer,
  type Body,
  type Endpoint,
  type Envelope,
  type ErrorCode,
  type ErrorEnvelope,
  type EstadosBody,
  type InfoCpBody,
  type MunicipiosBody,
  type PostalCodeRecord,
  type RouterContext,
  type SearchCpBody,
  type SimplifiedPostalCodeRecord,
  type SuccessEnvelope,
  type TokenRegistry,
} from './copomex.js';
export { ArtifactError, Catalog, decodeCatalog, loadCatalog, readArtifact } from './catalog.js';
export { FORMAT_NAME, FORMAT_VERSION, type ArtifactHeader } from './format.js';
export { defaultArtifactPath } from './paths.js';
export {
  FIELDS,
  SUGGESTION_THRESHOLD,
  VALIDATION_ERRORS,
  foldForMatch,
  validateAddress,
  type AddressRecord,
  type Field,
  type ValidationError,
  type ValidationResult,
} from './validate.js';
export { COLUMN_NAMES, InputError, validateStream, type InputFormat, type LineResult, type ValidateStreamOptions } from './validate-stream.js';

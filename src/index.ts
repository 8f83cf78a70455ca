/**
 * cpmx: Mexican postal codes answered offline, by the COPOMEX API's contract.
 *
 * ```ts
 * import { createClient } from 'cpmx';
 * const cpmx = createClient({ token: 'my-app' });
 * cpmx.infoCp('09810', { type: 'simplified' });
 * ```
 *
 * Address validation is a separate entry, `cpmx/validate`, so that importing the lookups
 * loads nothing it does not need.
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

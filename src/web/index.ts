/**
 * cpmx/web: the lookups of cpmx for browsers, Web Workers, Deno, Bun and edge runtimes,
 * answered from a static tree (`cpmx export web DIR`) fetched file by file: about 3 KB per
 * postal code instead of the whole catalog. Only `fetch`: no Node API, no file system.
 *
 * ```ts
 * import { createWebClient, isSuccess } from 'cpmx/web';
 * const cpmx = createWebClient({ base: '/cpmx/', token: 'my-app' });
 * const body = await cpmx.infoCp('09810', { type: 'simplified' });
 * if (isSuccess(body)) console.log(body.response.asentamiento);
 * ```
 */
export { createWebClient, type CallOptions, type WebClient, type WebClientOptions } from './client.js';
export { WebTreeError, type WebTreeProblem } from './tree-files.js';
export type { WebManifest } from './format.js';
export type { InfoCpOptions, MunicipioOptions, SearchCpAdvancedOptions } from '../client/client.js';
export {
  ERRORS,
  TEST_TOKEN,
  isSuccess,
  type Body,
  type CitiesByStateCodeBody,
  type ColoniaListBody,
  type ColoniaPorCpBody,
  type ColoniaPorEstadoMunicipioBody,
  type ColoniaPorMunicipioBody,
  type ConsultasDisponiblesBody,
  type CpListBody,
  type CpPorEstadoBody,
  type CpPorMunicipioBody,
  type Envelope,
  type ErrorCode,
  type ErrorEnvelope,
  type EstadoClaveBody,
  type EstadosBody,
  type InfoCpBody,
  type InfoCpFullBody,
  type InfoCpSimplifiedBody,
  type MunicipioClaveBody,
  type MunicipioClavePorClaveEstadoBody,
  type MunicipioClavePorEstadoBody,
  type MunicipiosBody,
  type PostalCodeRecord,
  type SearchCpAdvancedBody,
  type SearchCpBody,
  type SimplifiedPostalCodeRecord,
  type SuccessEnvelope,
} from '../core/contract.js';

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
export * from '../public-contract.js';

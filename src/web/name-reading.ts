/**
 * The name reading of cpmx/web, a chunk of its own (`dist/web-names.js`) loaded only when a
 * name is not a catalog spelling (`N.L.`, `Alc. Iztapalapa`, `Gral. Escobedo`) or a
 * settlement is searched (`search_cp_advanced` with `colonia`): the tables of
 * `core/name-forms.ts` and their readers are most of the module's weight, and most pages
 * never need them. The core's own modules, re-exported: the web bundle's stand-ins
 * (`name-keys.web.ts`, `settlement-search.web.ts`) call these once this is loaded.
 */
export * from '../core/name-keys.js';
export { codesWithSettlement } from '../core/settlement-search.js';

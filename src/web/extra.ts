/**
 * What cpmx/web needs only now and then, a chunk of its own (`dist/web-extra.js`) that
 * `lazy-extra.ts` imports on first need: the reading of names past their catalog spellings
 * (`N.L.`, `Alc. Iztapalapa`, `Gral. Escobedo`: the tables of `core/name-forms.ts` and their
 * readers), the settlement search of `search_cp_advanced` with `colonia`, and test mode's
 * answers. They were most of the module's weight, and most pages never need them. These are
 * the core's own modules, re-exported: the web bundle's stand-ins (`*.web.ts`) call them.
 */
export * from '../core/name-keys.js';
export { codesWithSettlement, codesWithSettlementKey, readColonia } from '../core/settlement-search.js';
export { TEST_ANSWERS } from '../core/answers/test-mode.js';
export { answerGeocoding, answerGeocodingReverse, checkCoordinates, testGeocoding, testGeocodingReverse, treeGeo } from '../core/geo/answers.js';

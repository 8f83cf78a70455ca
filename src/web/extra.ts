/**
 * What cpmx/web needs only now and then, a chunk of its own (`dist/web-extra.js`) that
 * `lazy-extra.ts` imports on first need: the reading of names past their catalog spellings
 * (`N.L.`, `Alc. Iztapalapa`, `Gral. Escobedo`: core/written-names.ts, with the tables of
 * `core/name-forms.ts` and their readers), the settlement search of `search_cp_advanced` with
 * `colonia` (its folding included), test mode's answers and the geocoding methods' answers and
 * checks. They were most of the module's weight, and most pages never need them. These are the
 * core's own modules, re-exported: the web bundle's stand-ins (`*.web.ts`) call them.
 */
export { municipalityReadings, stateOfForm } from '../core/written-names.js';
export { codesOfColonia } from '../core/settlement-search.js';
export { codeRunsOfState, municipalityIndexOf } from './view-search.js';
export { TEST_ANSWERS } from '../core/answers/test-mode.js';
export { answerGeocoding, answerGeocodingReverse, checkCoordinates, testGeocoding, testGeocodingReverse, treeGeo } from '../core/geo/answers.js';

/**
 * `geo/answers.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the geocoding
 * answers and checks are called from the lazily loaded extra module (`lazy-extra.ts`), as test
 * mode's are, so web.js carries none of their code.
 */
import type * as geo from '../core/geo/answers.js';
import { extra } from './lazy-extra.js';

export const checkCoordinates: typeof geo.checkCoordinates = (...args) => extra().checkCoordinates(...args);
export const answerGeocoding: typeof geo.answerGeocoding = (...args) => extra().answerGeocoding(...args);
export const answerGeocodingReverse: typeof geo.answerGeocodingReverse = (...args) => extra().answerGeocodingReverse(...args);
export const treeGeo: typeof geo.treeGeo = (...args) => extra().treeGeo(...args);

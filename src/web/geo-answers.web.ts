/**
 * `core/geo/answers.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the geocoding
 * answers and checks are called from the lazily loaded extra module (`lazy-extra.ts`), as test
 * mode's are, so web.js carries none of their code. Each name is read when the table is made;
 * the module is reached only when one is called.
 */
import type * as geo from '../core/geo/answers.js';
import { forwarded } from '../core/forwarded.js';
import { extra } from './lazy-extra.js';

type Geo = Pick<typeof geo, 'checkCoordinates' | 'answerGeocoding' | 'answerGeocodingReverse' | 'treeGeo' | 'testGeocoding' | 'testGeocodingReverse'>;

export const { checkCoordinates, answerGeocoding, answerGeocodingReverse, treeGeo, testGeocoding, testGeocodingReverse }: Geo = forwarded<Geo>(extra);

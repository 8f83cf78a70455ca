/**
 * `core/written-names.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the reading of
 * names past their catalog spellings is called from the lazily loaded extra module
 * (`lazy-extra.ts`), so web.js carries none of it, nor the tables it reads. Names matched by
 * their catalog spelling never call these.
 */
import type * as written from '../core/written-names.js';
import { extra } from './lazy-extra.js';

export const stateOfForm: typeof written.stateOfForm = (catalog, name) => extra().stateOfForm(catalog, name);
export const municipalityReadings: typeof written.municipalityReadings = (catalog, name, indexBy) => extra().municipalityReadings(catalog, name, indexBy);

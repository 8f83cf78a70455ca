/**
 * `core/settlement-search.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the
 * `colonia` filter's search, its folding included, called from the lazily loaded extra module
 * (`lazy-extra.ts`).
 */
import type * as search from '../core/settlement-search.js';
import { extra } from './lazy-extra.js';

export const codesOfColonia: typeof search.codesOfColonia = (catalog, state, colonia, municipality, limit) => extra().codesOfColonia(catalog, state, colonia, municipality, limit);

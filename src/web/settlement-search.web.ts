/**
 * `core/settlement-search.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the
 * `colonia` filter's search, called from the lazily loaded extra module (`lazy-extra.ts`).
 */
import type * as search from '../core/settlement-search.js';
import { extra } from './lazy-extra.js';

export const codesWithSettlement: typeof search.codesWithSettlement = (catalog, state, needle, municipality, limit) =>
  extra().codesWithSettlement(catalog, state, needle, municipality, limit);
export const readColonia: typeof search.readColonia = (colonia) => extra().readColonia(colonia);
export const codesWithSettlementKey: typeof search.codesWithSettlementKey = (catalog, state, key, municipality, limit) =>
  extra().codesWithSettlementKey(catalog, state, key, municipality, limit);

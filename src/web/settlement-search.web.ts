/**
 * `core/settlement-search.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): the
 * `colonia` filter's search, called from the lazily loaded name reading (`lazy-reading.ts`).
 */
import type * as search from '../core/settlement-search.js';
import { nameReading } from './lazy-reading.js';

export const codesWithSettlement: typeof search.codesWithSettlement = (catalog, state, needle, municipality, limit) =>
  nameReading().codesWithSettlement(catalog, state, needle, municipality, limit);

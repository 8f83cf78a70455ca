/**
 * `core/name-keys.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): each function
 * calls the real one from the lazily loaded name reading (`lazy-reading.ts`), so the tables
 * stay out of `web.js`. Names matched by their catalog spelling never call these.
 */
import type * as keys from '../core/name-keys.js';
import { nameReading } from './lazy-reading.js';

export type { NameWords } from '../core/name-keys.js';
export const nameWords: typeof keys.nameWords = (text) => nameReading().nameWords(text);
export const wordForm: typeof keys.wordForm = (word) => nameReading().wordForm(word);
export const nameKey: typeof keys.nameKey = (text) => nameReading().nameKey(text);
export const formWords: typeof keys.formWords = (forms) => nameReading().formWords(forms);
export const leadingForm: typeof keys.leadingForm = (words, forms) => nameReading().leadingForm(words, forms);
export const municipalityKeys: typeof keys.municipalityKeys = (text) => nameReading().municipalityKeys(text);
export const sameMunicipality: typeof keys.sameMunicipality = (text, catalogName) => nameReading().sameMunicipality(text, catalogName);
export const compact: typeof keys.compact = (text) => nameReading().compact(text);
export const stateKeyOf: typeof keys.stateKeyOf = (text) => nameReading().stateKeyOf(text);
export const isListedStateForm: typeof keys.isListedStateForm = (text) => nameReading().isListedStateForm(text);

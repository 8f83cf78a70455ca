/**
 * `core/name-keys.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): each function
 * calls the real one from the lazily loaded extra module (`lazy-extra.ts`), so the tables
 * stay out of `web.js`. Names matched by their catalog spelling never call these.
 */
import type * as keys from '../core/name-keys.js';
import { extra } from './lazy-extra.js';

export type { NameWords } from '../core/name-keys.js';
export const nameWords: typeof keys.nameWords = (text) => extra().nameWords(text);
export const wordForm: typeof keys.wordForm = (word) => extra().wordForm(word);
export const nameKey: typeof keys.nameKey = (text) => extra().nameKey(text);
export type { FormIndex } from '../core/name-keys.js';
export const formIndex: typeof keys.formIndex = (forms) => extra().formIndex(forms);
export const leadingIn: typeof keys.leadingIn = (words, index) => extra().leadingIn(words, index);
export const municipalityKeys: typeof keys.municipalityKeys = (text) => extra().municipalityKeys(text);
export const sameMunicipality: typeof keys.sameMunicipality = (text, catalogName) => extra().sameMunicipality(text, catalogName);
export const compact: typeof keys.compact = (text) => extra().compact(text);
export const stateKeyOf: typeof keys.stateKeyOf = (text) => extra().stateKeyOf(text);
export const isListedStateForm: typeof keys.isListedStateForm = (text) => extra().isListedStateForm(text);

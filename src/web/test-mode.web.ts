/**
 * `core/answers/test-mode.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): test
 * mode's answers, called from the lazily loaded extra module (`lazy-extra.ts`).
 */
import type * as testMode from '../core/answers/test-mode.js';
import { extra } from './lazy-extra.js';

export const answerTestMode: typeof testMode.answerTestMode = (request) => extra().answerTestMode(request);

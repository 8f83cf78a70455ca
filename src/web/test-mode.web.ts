/**
 * `core/answers/test-mode.ts` in cpmx/web's bundle (scripts/bundle.mjs swaps it in): each of
 * test mode's answers calls the real one from the lazily loaded extra module (`lazy-extra.ts`).
 * The method table reads these functions when it is made; they reach the module only when called.
 */
import type * as testMode from '../core/answers/test-mode.js';
import { forwarded } from '../core/forwarded.js';
import { extra } from './lazy-extra.js';

export const TEST_ANSWERS: typeof testMode.TEST_ANSWERS = forwarded(() => extra().TEST_ANSWERS);

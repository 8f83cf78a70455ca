/**
 * `core/code-runs.ts`, `core/copy-members.ts` and `core/catalog-history.ts` in the library's
 * Node bundles (scripts/bundle.mjs swaps this in for each): the catalog calls them only for
 * answers beyond a first `infoCp` (a state's or municipality's codes, municipality keys, a
 * code's history), so the real ones are in dist/cpmx-deferred.cjs, required at the first call.
 */
import { forwarded } from '../core/forwarded.js';
import { deferred } from './deferred-file.js';

type Parts = Pick<ReturnType<typeof deferred>, 'codesOfRuns' | 'mergeRuns' | 'copyStateMembers' | 'parseHistory'>;

export const { codesOfRuns, mergeRuns, copyStateMembers, parseHistory }: Parts = forwarded<Parts>(deferred);

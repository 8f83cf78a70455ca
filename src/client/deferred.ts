/**
 * What a first lookup does not need, in the library's Node bundles a file of its own
 * (dist/cpmx-deferred.cjs) required at its first need (deferred-file.ts): the client's
 * methods but a directly answered `infoCp` and the geo helpers, and with them the method table,
 * the router, the credit step, every answer from the catalog but `info_cp`'s (the reading of
 * written names and the settlement search, whose tables are most of it) and test mode's, and
 * the parts of the catalog's own code only those answers call.
 * Importing cpmx, `createClient` and a first `infoCp` parse none of it. It carries its own copy
 * of what it inlines: nothing here is compared by identity with the entry's (the errors a caller
 * tests with instanceof are thrown by the entry's own code); the catalog source is passed in.
 */
export { clientMethodNames, clientMethods } from './client-methods.js';
/* What the catalog calls only for those methods' answers (catalog-parts.lazy.ts stands in for them in the entry). */
export { codesOfRuns, mergeRuns } from '../core/code-runs.js';
export { copyStateMembers } from '../core/copy-members.js';
export { parseHistory } from '../core/catalog-history.js';

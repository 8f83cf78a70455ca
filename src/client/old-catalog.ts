/**
 * What the library says to the process, once each, as Node warnings. An old catalog: `cpmx build`, `cpmx serve` and `createClient()` warn when the
 * catalog they answer from is more than a year old (Correos de México updates it monthly), with
 * the command that refreshes it. Once per process, on its main thread only (a pool of worker
 * threads would otherwise say it once each); never in browsers (the web build has no caller);
 * CPMX_NO_AGE_WARNING=1 silences it, as does Node's `--disable-warning=CPMX_OLD_CATALOG` for
 * the library's.
 */
import { catalogAge, type ArtifactHeader } from '../core/format.js';
import { nodeWorkerThreads } from '../node-builtins.js';
import { OLD_CATALOG_CODE, firstTime } from './said-once.js';

export { OLD_CATALOG_CODE, markOldCatalogSaid } from './said-once.js';

/** What the age is read from: an artifact's header, or a build's `{ source: { date } }`. */
type AgeOf = Parameters<typeof catalogAge>[0];

/** Past this many days the catalog is called old. */
export const OLD_CATALOG_DAYS = 365;
/** The variable that silences the warning (any value but empty or 0). */
export const QUIET_VARIABLE = 'CPMX_NO_AGE_WARNING';
/** The command that brings the catalog up to date. */
export const REFRESH_COMMAND = 'npx cpmx build --download';

/** The warning's words for `header` at `now`, or undefined when the catalog is not old (or its date unknown). */
export function oldCatalogMessage(header: AgeOf, now: number): string | undefined {
  const { catalogDate, catalogAgeDays } = catalogAge(header, now);
  if (catalogAgeDays === null || catalogDate === null || catalogAgeDays <= OLD_CATALOG_DAYS) return undefined;
  return (
    `the catalog is ${catalogAgeDays} days old (dated ${catalogDate.slice(0, 10)}), more than a year; ` +
    `Correos de México updates it monthly: run \`${REFRESH_COMMAND}\` to refresh it (${QUIET_VARIABLE}=1 silences this warning)`
  );
}

/** Says through `say` that the catalog is old, unless silenced, said already in this process, or off the main thread. */
export function warnOldCatalog(header: AgeOf, say: (message: string) => void): void {
  // A current catalog, the usual case, costs one date comparison.
  const message = oldCatalogMessage(header, Date.now());
  if (message === undefined) return;
  const quiet = process.env[QUIET_VARIABLE];
  if ((quiet && quiet !== '0') || !nodeWorkerThreads().isMainThread) return;
  if (firstTime(OLD_CATALOG_CODE)) say(message);
}

/**
 * The library's voice: a process warning with its code, which a 'warning' listener or Node's
 * flags can take. Judged and made once the caller's code has run (Node gives a warning to its
 * listeners on a later tick anyway): a warning's stack trace and the thread check cost about a
 * millisecond, which a first answer need not wait for.
 */
export function emitOldCatalogWarning(header: ArtifactHeader): void {
  process.nextTick(() => warnOldCatalog(header, (message) => process.emitWarning(`cpmx: ${message}`, { code: OLD_CATALOG_CODE })));
}

/** The code of the library's warning for a postal code passed as a number that lost its leading zero. */
export const CP_NUMBER_CODE = 'CPMX_CP_NUMBER';

/** `infoCp(9810)`: once per process, that the 5-digit code exists (core/leading-zero.ts says how). */
export function emitCpNumberWarning(message: string): void {
  if (firstTime(CP_NUMBER_CODE)) process.emitWarning(`cpmx: ${message}`, { code: CP_NUMBER_CODE });
}

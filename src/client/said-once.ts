/**
 * Warnings said once per process, by code: kept on the global object, so that two bundles of
 * cpmx in one process (ESM and CommonJS) say each once. Small, for the command line's start.
 */

/** Whether the warning of `code` is still to be said in this process, marking it said. */
export function firstTime(code: string): boolean {
  const said = globalThis as { [key: symbol]: true | undefined };
  const key = Symbol.for(`cpmx.said.${code}`);
  if (said[key]) return false;
  said[key] = true;
  return true;
}

/** The code of the library's old-catalog warning. */
export const OLD_CATALOG_CODE = 'CPMX_OLD_CATALOG';

/** Marks the old-catalog warning as said: the command line's commands other than build and serve say nothing of the age. */
export function markOldCatalogSaid(): void {
  firstTime(OLD_CATALOG_CODE);
}

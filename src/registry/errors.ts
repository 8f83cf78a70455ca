/**
 * The two ways a registry fails. `RegistryError`: it cannot be used as given (a missing file,
 * a schema newer than this cpmx, no driver): the command refuses with the message. And
 * `RegistryUnavailableError`: it is there but cannot answer now (locked, unreachable,
 * read-only, timed out): a paying request then gets 503, never a free answer, and the
 * server keeps trying by itself. What any error means (these two, and the drivers') is
 * decided in failure.ts.
 */

/** The registry cannot be used as given: the message says why and what to do. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** The registry cannot answer now; requests that need it answer 503, and no credit is kept. */
export class RegistryUnavailableError extends Error {
  override readonly name = 'RegistryUnavailableError';
}

/** `--panel` given without a registry: the library's `serve()` and the command line refuse with this. */
export const PANEL_NEEDS_REGISTRY = '--panel needs a registry: add --registry FILE|URL (or set CPMX_REGISTRY); the panel keeps its accounts, sessions and projects there';

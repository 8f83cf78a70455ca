/**
 * The two ways a registry fails. `RegistryError`: it cannot be used as given (a missing file,
 * a schema newer than this cpmx, no driver): the command refuses with the message. And
 * `RegistryUnavailableError`: it is there but cannot answer now (locked, unreachable,
 * read-only, timed out): a paying request then gets 503, never a free answer, and the
 * server keeps trying by itself.
 */

/** The registry cannot be used as given: the message says why and what to do. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
}

/** The registry cannot answer now; requests that need it answer 503, and no credit is kept. */
export class RegistryUnavailableError extends Error {
  override readonly name = 'RegistryUnavailableError';
}

export function isRegistryUnavailable(error: unknown): error is RegistryUnavailableError {
  return error instanceof RegistryUnavailableError;
}

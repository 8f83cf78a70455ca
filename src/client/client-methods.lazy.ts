/**
 * `client-methods.ts` in the library's Node bundles (scripts/bundle.mjs swaps this in): the
 * methods are made in dist/cpmx-deferred.cjs at the first call of one, so that `createClient`
 * and a first `infoCp` answered directly load none of the method table and router. Each is an
 * own enumerable property from the start, under the real methods' names in their order, which
 * the bundle script reads from the built deferred file (CLIENT_METHOD_NAMES).
 */
import { forwarded } from '../core/forwarded.js';
import { deferred } from './deferred-file.js';
import type { CatalogSource } from './bytes-source.js';
import type { ClientOptions } from './client-types.js';
import type { ClientMethods } from './client-methods.js';

declare const CLIENT_METHOD_NAMES: readonly (keyof ClientMethods)[];

export function clientMethods(source: CatalogSource, options: ClientOptions, token: string | undefined): ClientMethods {
  let made: ClientMethods | undefined;
  const methods = forwarded(() => (made ??= deferred().clientMethods(source, options, token)));
  return Object.fromEntries(CLIENT_METHOD_NAMES.map((name) => [name, methods[name]])) as unknown as ClientMethods;
}

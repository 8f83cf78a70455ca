/** The command line's way into the router: the same answers as the library and the server. */
import { catalogSource } from './catalog-source.js';
import { TEST_TOKEN, type Body } from '../core/contract.js';
import type { RawRequest } from '../core/request.js';
import { handle } from '../core/router.js';

/**
 * Answers requests from the artifact at `dataPath`; test mode never reads it. `eager`: with a
 * real token the artifact is loaded before anything else, so a missing one is reported
 * (exit 2) whatever the request, as `createClient` does; otherwise only when a lookup needs it.
 */
export function answerer(dataPath: string, defaultToken: string | undefined, eager: boolean): (raw: RawRequest | undefined) => Body {
  const source = catalogSource(dataPath);
  const context = { catalog: source.get, geo: () => source.geo!(source.get()) };
  return (raw) => {
    if (raw) raw.token ??= defaultToken;
    const token = raw ? raw.token : defaultToken;
    if (eager && token && token !== TEST_TOKEN) source.get();
    return handle(raw, context).body;
  };
}

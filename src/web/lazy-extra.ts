/**
 * Loads `extra.ts` (in the bundle, `web-extra.js` beside `web.js`) once, on first need. Until
 * it has arrived, its stand-ins throw `Missing([EXTRA])`: the client loads it and asks the
 * router again, as for a tree file, so every answer is still made by the core's own code.
 */
import { EXTRA, Missing } from './missing.js';

type Extra = typeof import('./extra.js');

let loaded: Extra | undefined;
let loading: Promise<Extra> | undefined;

/** The extra module, or `Missing` while it has not been loaded. */
export function extra(): Extra {
  if (!loaded) throw new Missing([EXTRA]);
  return loaded;
}

/** Loads the extra module (once; a failed load is tried again on the next call). */
export function loadExtra(): Promise<Extra> {
  loading ??= import('./extra.js').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw new Error(`cpmx/web: could not load web-extra.js (serve it beside web.js): ${error}`);
    },
  );
  return loading;
}

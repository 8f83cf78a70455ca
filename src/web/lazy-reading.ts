/**
 * Loads `name-reading.ts` (in the bundle, `web-names.js` beside `web.js`) once, on first need.
 * Until it has arrived, its stand-ins throw `Missing([NAME_READING])`: the client loads it and
 * asks the router again, as for a tree file, so a name is read by the core's own code either way.
 */
import { Missing, NAME_READING } from './missing.js';

type Reading = typeof import('./name-reading.js');

let reading: Reading | undefined;
let loading: Promise<Reading> | undefined;

/** The name reading, or `Missing` while it has not been loaded. */
export function nameReading(): Reading {
  if (!reading) throw new Missing([NAME_READING]);
  return reading;
}

/** Loads the name reading (once; a failed load is tried again on the next call). */
export function loadNameReading(): Promise<Reading> {
  loading ??= import('./name-reading.js').then(
    (module) => (reading = module),
    (error: unknown) => {
      loading = undefined;
      throw new Error(`cpmx/web: could not load web-names.js, which reads names past their catalog spellings (it sits beside web.js: serve both): ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  return loading;
}

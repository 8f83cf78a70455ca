/**
 * What the web client's view of the catalog throws when something an answer needs has not
 * arrived yet: tree files by part name (`e`, `s09`, `c098`, ...), or `EXTRA`, the module of
 * what only some answers need (src/web/extra.ts). The client fetches them all and asks the
 * router again.
 */
export class Missing {
  constructor(readonly parts: readonly string[]) {}
}

/** The part that stands for `web-extra.js` (src/web/extra.ts), loaded on first need. */
export const EXTRA = '#extra';

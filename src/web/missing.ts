/**
 * What the web client's view of the catalog throws when something an answer needs has not
 * arrived yet: tree files by part name (`e`, `s09`, `c098`, ...), or `NAME_READING`, the
 * module that reads names past their catalog spellings. The client fetches them all and asks
 * the router again.
 */
export class Missing {
  constructor(readonly parts: readonly string[]) {}
}

/** The part that stands for `web-names.js` (src/web/name-reading.ts), loaded on first need. */
export const NAME_READING = '#names';

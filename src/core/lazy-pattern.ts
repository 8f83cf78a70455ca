/**
 * A regular expression with Unicode property classes (`\p{L}`), compiled at its first use.
 * V8 checks such a class while it parses a regular expression literal, about a tenth of a
 * millisecond each: four literals in the lookup path's modules cost 0.5 ms of every import
 * of the package, for patterns only name-reading answers use.
 */
export function lazyPattern(source: string, flags: string): () => RegExp {
  let pattern: RegExp | undefined;
  return () => (pattern ??= new RegExp(source, flags));
}

/**
 * The reads of the web tree's view (view.ts) that only the `colonia` filter's search makes, in
 * web-extra.js with the search itself: TreeView's methods of these names call them. Made of the
 * view's public reads, so a file still to come is the view's own `Missing`.
 */
import type { CatalogReader } from '../core/catalog-reader.js';

/** What these read of the view: its public reads, and `need`, which says every file still to come at once. */
type SearchedView = Pick<CatalogReader, 'codesOfState' | 'stateOf' | 'municipalityOf' | 'municipalityCount' | 'nameOfMunicipality' | 'stateOfMunicipality' | 'stateNames'> & {
  need(parts: readonly string[]): void;
};

/** Each code of the state as a run of its own, once every shard of the state has arrived (all of them asked for at once). */
export function codeRunsOfState(view: SearchedView, state: number): readonly number[] {
  const codes = view.codesOfState(state);
  view.need([...new Set(codes.map((code) => `c${code.slice(0, 3)}`))]);
  return codes.flatMap((code) => [Number(code), Number(code) + 1]);
}

/** The view's index of a code's municipality (among those in its scope), or -1. */
export function municipalityIndexOf(view: SearchedView, code: number): number {
  const estado = view.stateOf(code);
  const municipio = view.municipalityOf(code);
  for (let m = 0; m < view.municipalityCount; m++) {
    if (view.nameOfMunicipality(m) === municipio && view.stateNames()[view.stateOfMunicipality(m)] === estado) return m;
  }
  return -1;
}

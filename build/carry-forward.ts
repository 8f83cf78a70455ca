/**
 * A newer catalog compiled as the successor of an artifact, so that what the artifact records
 * beyond the official file is not lost when its catalog is replaced (`cpmx serve
 * --refresh-every`, `cpmx build --update`):
 * - its corrections are re-applied by build --corrections's rule (build/corrections.ts); one
 *   that no longer applies (Correos fixed the error, the code is gone) is dropped and recorded
 *   as dropped, with why and since which catalog, rather than refusing the whole catalog;
 * - its history is carried forward by build --previous's rule (build/history.ts), with the
 *   artifact as the earlier catalog: codes it had that the new catalog lacks are retired since
 *   the new catalog's date, at their last place in it; codes it lacked are added since then.
 *   The same catalog again keeps the artifact's history as it is. An artifact with a history
 *   must be older than the new catalog (else the new one is refused: the history would be
 *   lost); one without starts a history when both catalogs are dated and in order, and
 *   otherwise the successor has none, as the artifact had none.
 */
import type { Catalog } from '../src/core/catalog.js';
import { compileCatalog, type Compiled, type HistoryStep } from './compile.js';
import { CatalogError } from './errors.js';
import { recordedCorrections } from './corrections.js';
import { catalogHistory } from './history.js';
import type { ReadOptions } from './read-catalogs.js';

export interface Predecessor {
  catalog: Catalog;
  /** Where it was read from, for errors. */
  path: string;
}

/** Compiles the catalog(s) at `paths` as `predecessor`'s successor; throws CatalogError as a build does. */
export function compileSuccessor(paths: readonly string[], builtAt: Date, predecessor: Predecessor, options: Omit<ReadOptions, 'corrections' | 'reapply'> = {}): Promise<Compiled> {
  const { header } = predecessor.catalog;
  const record = header.corrections;
  const history: HistoryStep = async (built, name) => {
    const kept = predecessor.catalog.history();
    if (built.header.source.sha256 === header.source.sha256) return kept && header.history && { data: kept, summary: header.history };
    try {
      return catalogHistory(built, name, [predecessor]);
    } catch (error) {
      if (header.history === undefined && error instanceof CatalogError) return undefined;
      throw error;
    }
  };
  return compileCatalog(paths, builtAt, {
    ...options,
    ...(record ? { corrections: recordedCorrections(record, `the corrections recorded in ${predecessor.path}`), reapply: { earlier: record.dropped ?? [] } } : {}),
    history,
  });
}

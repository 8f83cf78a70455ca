/**
 * Reads one catalog, or several per-state files merged, into one model, with an operator's
 * corrections applied: what `cpmx build` compiles and what `cpmx diff` compares.
 */
import type { CorrectionsRecord, DroppedCorrection } from '../src/core/catalog-history.js';
import { applyCorrections, reapplyCorrections } from './corrections.js';
import type { CorrectionsFile } from './corrections-file.js';
import { CatalogError } from './errors.js';
import { SourceMerge } from './merge.js';
import { provenance } from './provenance.js';
import { CatalogModel } from './model.js';
import { CatalogReader, DEFAULT_LIMITS, type CatalogRow, type CatalogSourceInfo, type ReadLimits } from './reader.js';

export interface ReadOptions {
  /** Bounds on what is read; each defaults to DEFAULT_LIMITS. */
  limits?: Partial<ReadLimits>;
  /** Called every 10,000 rows. */
  onProgress?: (rows: number) => void;
  /** Called when a FIFO source waits for a writer. */
  onWaiting?: (path: string) => void;
  /** Corrections to apply to the catalog read (build/corrections.ts). */
  corrections?: CorrectionsFile;
  /**
   * The corrections are an artifact's, re-applied to a newer catalog: those that no longer
   * apply are dropped (listed after `earlier`, the artifact's earlier drops), not refused.
   */
  reapply?: { earlier: readonly DroppedCorrection[] };
}

/**
 * Reads the catalog(s) into one model, refusing bad input (CatalogError), a row count over the
 * limit, a file without rows, and files that disagree about a code.
 */
export async function readCatalogs(
  paths: readonly string[],
  options: ReadOptions = {},
): Promise<{ model: CatalogModel; sources: CatalogSourceInfo[]; corrections?: CorrectionsRecord; dropped?: DroppedCorrection[] }> {
  if (!paths.length) throw new TypeError('readCatalogs needs at least one catalog path');
  const limits = { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined)) };
  const merge = new SourceMerge(paths.length > 1);
  const model = new CatalogModel(paths[0]!);
  const sources: CatalogSourceInfo[] = [];
  // With corrections, the rows are kept (with their source) until all are read: a correction is
  // checked against the whole catalog, and none is applied unless all are.
  const kept: { row: CatalogRow; where: string }[] | undefined = options.corrections ? [] : undefined;
  let rows = 0;
  for (const path of paths) {
    const reader = new CatalogReader(path, { limits, onWaiting: options.onWaiting });
    let rowsHere = 0;
    for await (const row of reader.rows()) {
      if (rowsHere++ === 0) {
        // Known from the first row on: a zip's member is named by then.
        model.readingFrom(reader.where);
        merge.begin(reader.where);
      }
      if (++rows > limits.maxRows) {
        throw new CatalogError(reader.where, `has more than ${limits.maxRows} rows${paths.length > 1 ? ' with the files before it' : ''}, the limit (--max-rows raises it)`, row.line);
      }
      if (merge.accept(row)) {
        if (kept) kept.push({ row, where: reader.where });
        else model.add(row);
      }
      if (options.onProgress && rows % 10_000 === 0) options.onProgress(rows);
    }
    if (!rowsHere) throw new CatalogError(reader.where, 'has a header but no data rows');
    merge.end();
    sources.push(reader.info());
  }
  if (!kept || !options.corrections) return { model, sources };
  const wheres = new Map(kept.map(({ row, where }) => [row, where]));
  const rowsRead = kept.map(({ row }) => row);
  const corrected = options.reapply
    ? reapplyCorrections(rowsRead, options.corrections, provenance(sources, new Date()).source.date ?? null, options.reapply.earlier)
    : { ...applyCorrections(rowsRead, options.corrections), dropped: undefined };
  for (const row of corrected.rows) {
    // A row a correction made is named as coming from the corrections file.
    model.readingFrom(wheres.get(row) ?? options.corrections.path);
    model.add(row);
  }
  return { model, sources, corrections: corrected.record, ...(corrected.dropped ? { dropped: corrected.dropped } : {}) };
}

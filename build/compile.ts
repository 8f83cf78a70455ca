/**
 * The compiler's one path from catalog(s) to artifact bytes, writing nothing: `cpmx build`
 * writes them (build.ts), `cpmx serve --refresh-every` checks them first (src/serve/refresh.ts),
 * and a successor of an artifact is compiled through it too (carry-forward.ts).
 */
import type { ArtifactHeader } from '../src/core/format.js';
import { decodeCatalog, type Catalog } from '../src/core/catalog.js';
import type { DroppedCorrection, HistoryData, HistorySummary } from '../src/core/catalog-history.js';
import { readCorrections } from './corrections-file.js';
import { catalogHistory } from './history.js';
import { openCatalog } from './open-catalog.js';
import { provenance } from './provenance.js';
import { readCatalogs, type ReadOptions } from './read-catalogs.js';
import { encodeArtifact } from './write.js';

export interface CompileOptions extends Omit<ReadOptions, 'corrections'> {
  /** A corrections file (CSV, build/corrections.ts) to apply; refused wholly if any row does not apply. */
  corrections?: string | undefined;
  /** Earlier catalogs (files or artifacts) whose codes this one lacks are recorded as retired (build/history.ts). */
  previous?: readonly string[] | undefined;
}

/** Reads the catalog(s) and compiles them into the artifact's bytes, writing nothing. */
export async function compileArtifact(paths: readonly string[], builtAt: Date, { corrections, previous = [], ...options }: CompileOptions = {}): Promise<Compiled> {
  const correctionsFile = corrections === undefined ? undefined : await readCorrections(corrections);
  return compileCatalog(paths, builtAt, {
    ...options,
    corrections: correctionsFile,
    history: async (built, name) => {
      if (!previous.length) return undefined;
      const earlier = [];
      for (const path of previous) earlier.push({ catalog: await openCatalog(path, options), path });
      return catalogHistory(built, name, earlier);
    },
  });
}

export interface Compiled {
  bytes: Buffer;
  header: ArtifactHeader;
  /** Recorded corrections that no longer applied (with `reapply`), this time. */
  dropped: DroppedCorrection[];
}

/** The history section of a catalog built (`name` for errors), or undefined for none. */
export type HistoryStep = (built: Catalog, name: string) => Promise<{ data: HistoryData; summary: HistorySummary } | undefined>;

/**
 * The compiler's one path: the catalog(s) read with the corrections applied (or, with
 * `reapply`, re-applied: build/carry-forward.ts), modelled, and given a history section by
 * `history` (build/history.ts's rule, with the earlier catalogs it opens after the catalog is read).
 */
export async function compileCatalog(paths: readonly string[], builtAt: Date, { history, ...options }: ReadOptions & { history?: HistoryStep }): Promise<Compiled> {
  const { model, sources, corrections: applied, dropped = [] } = await readCatalogs(paths, options);
  const artifact = model.toArtifact({ ...provenance(sources, builtAt), ...(applied ? { corrections: applied } : {}) });
  let bytes = encodeArtifact(artifact);
  const found = history && (await history(decodeCatalog(bytes, paths.join(' + ')), paths.join(' + ')));
  if (found) {
    artifact.header.history = found.summary;
    artifact.history = Buffer.from(JSON.stringify(found.data));
    bytes = encodeArtifact(artifact);
  }
  return { bytes, header: artifact.header, dropped };
}

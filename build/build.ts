/**
 * `cpmx build`: find the catalog, read it (one file, or several per-state files merged), model
 * it, write the artifact atomically.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultArtifactPath } from '../src/paths.js';
import { ArtifactWriteError, CatalogError } from './errors.js';
import { defaultCatalogPaths } from './locations.js';
import { SourceMerge } from './merge.js';
import { decodeCatalog } from '../src/core/catalog.js';
import type { CorrectionsRecord, HistorySummary } from '../src/core/catalog-history.js';
import { applyCorrections, readCorrections, type CorrectionsFile } from './corrections.js';
import { catalogHistory } from './history.js';
import { openCatalog } from './open-catalog.js';
import { CatalogModel } from './model.js';
import { provenance } from './provenance.js';
import { CatalogReader, DEFAULT_LIMITS, type CatalogRow, type CatalogSourceInfo, type ReadLimits } from './reader.js';
import { checkArtifactPath, encodeArtifact, writeFileAtomic } from './write.js';

export interface CatalogLocation {
  /** The first (or only) catalog. */
  path: string;
  /** Every catalog, in the order given. */
  paths: string[];
  /** How it was chosen: `--source`, `CPMX_CATALOG`, or `default`. */
  from: '--source' | 'CPMX_CATALOG' | 'default';
}

/**
 * The catalog(s) to read, by the documented order; undefined when no default exists. A path
 * given explicitly is returned even when missing, so the reader can say it is missing.
 */
export function findCatalog(
  source?: string | readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  defaults: readonly string[] = defaultCatalogPaths,
): CatalogLocation | undefined {
  const given = typeof source === 'string' ? [source] : (source ?? []);
  const located = (paths: string[], from: CatalogLocation['from']) => ({ path: paths[0]!, paths, from });
  // `-` is stdin, never a file name to resolve.
  if (given.length) return located(given.map((path) => (path === '-' ? path : resolve(path))), '--source');
  if (env.CPMX_CATALOG) return located([resolve(env.CPMX_CATALOG)], 'CPMX_CATALOG');
  const found = defaults.find((path) => existsSync(path));
  return found ? located([found], 'default') : undefined;
}

export interface ReadOptions {
  /** Bounds on what is read; each defaults to DEFAULT_LIMITS. */
  limits?: Partial<ReadLimits>;
  /** Called every 10,000 rows. */
  onProgress?: (rows: number) => void;
  /** Called when a FIFO source waits for a writer. */
  onWaiting?: (path: string) => void;
  /** Corrections to apply to the catalog read (build/corrections.ts). */
  corrections?: CorrectionsFile;
}

export interface BuildOptions extends Omit<ReadOptions, 'corrections'> {
  /** One catalog, or several (per-state files) to merge. */
  source: string | readonly string[];
  out?: string;
  /** Recorded in the header as the build time; default now (the CLI takes SOURCE_DATE_EPOCH). */
  builtAt?: Date;
  /** A corrections file (CSV, build/corrections.ts) to apply; the build is refused if any row does not apply. */
  corrections?: string;
  /** Earlier catalogs (files or artifacts) whose codes this one lacks are recorded as retired (build/history.ts). */
  previous?: readonly string[];
}

export interface BuildSummary {
  /** The sources, joined with " + " when several. */
  source: string;
  sources: string[];
  out: string;
  encoding: 'latin1' | 'utf8' | 'mixed';
  sha256: string;
  /** The catalog's own date, when its source gives one. */
  catalogDate: string | undefined;
  rows: number;
  codes: number;
  states: number;
  municipalities: number;
  bytes: number;
  milliseconds: number;
  /** Corrections applied (0 without --corrections). */
  corrections: number;
  /** With --previous: the codes recorded as retired and as added since an earlier catalog. */
  history: HistorySummary | undefined;
}

/**
 * Reads the catalog(s) into one model, refusing bad input (CatalogError), a row count over the
 * limit, a file without rows, and files that disagree about a code.
 */
export async function readCatalogs(
  paths: readonly string[],
  options: ReadOptions = {},
): Promise<{ model: CatalogModel; sources: CatalogSourceInfo[]; corrections?: CorrectionsRecord }> {
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
  const corrected = applyCorrections(
    kept.map(({ row }) => row),
    options.corrections,
  );
  for (const row of corrected.rows) {
    // A row a correction made is named as coming from the corrections file.
    model.readingFrom(wheres.get(row) ?? options.corrections.path);
    model.add(row);
  }
  return { model, sources, corrections: corrected.record };
}

/** Compiles the catalog(s) at `source` into the artifact at `out`; throws CatalogError on bad input. */
export async function buildArtifact({ source, out = defaultArtifactPath(), builtAt = new Date(), corrections, previous = [], ...options }: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const paths = typeof source === 'string' ? [source] : [...source];
  // The catalogs (and the corrections and earlier catalogs) are never written over (`-` is
  // stdin); a path that cannot be written is refused before anything is read, not after.
  const inputs = [...paths, ...(corrections ? [corrections] : []), ...previous].map((path) => (path === '-' ? 0 : path));
  checkArtifactPath(resolve(out), inputs);
  const correctionsFile = corrections === undefined ? undefined : await readCorrections(corrections);
  const { model, sources, corrections: applied } = await readCatalogs(paths, { ...options, corrections: correctionsFile });
  const artifact = model.toArtifact({ ...provenance(sources, builtAt), ...(applied ? { corrections: applied } : {}) });
  let encoded = encodeArtifact(artifact);
  if (previous.length) {
    const earlier = [];
    for (const path of previous) earlier.push({ catalog: await openCatalog(path, options), path });
    const { data, summary } = catalogHistory(decodeCatalog(encoded, paths.join(' + ')), paths.join(' + '), earlier);
    artifact.header.history = summary;
    artifact.history = Buffer.from(JSON.stringify(data));
    encoded = encodeArtifact(artifact);
  }
  const bytes = writeFileAtomic(resolve(out), encoded, inputs);
  const { header } = artifact;
  return {
    source: paths.join(' + '),
    sources: paths,
    out: resolve(out),
    encoding: header.source.encoding,
    sha256: header.source.sha256,
    catalogDate: header.source.date,
    rows: header.rows,
    codes: header.codes,
    states: header.states,
    municipalities: header.municipalities,
    bytes,
    milliseconds: performance.now() - started,
    corrections: applied?.applied.length ?? 0,
    history: header.history,
  };
}

export { ArtifactWriteError, CatalogError, defaultCatalogPaths };

/**
 * `cpmx build`: find the catalog, read it (one file, or several per-state files merged), model
 * it, write the artifact atomically.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ArtifactHeader } from '../src/core/format.js';
import { defaultArtifactPath } from '../src/paths.js';
import { ArtifactWriteError, CatalogError } from './errors.js';
import { defaultCatalogPaths } from './locations.js';
import { SourceMerge } from './merge.js';
import { CatalogModel } from './model.js';
import { provenance } from './provenance.js';
import { CatalogReader, DEFAULT_LIMITS, type CatalogSourceInfo, type ReadLimits } from './reader.js';
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
}

export interface BuildOptions extends ReadOptions {
  /** One catalog, or several (per-state files) to merge. */
  source: string | readonly string[];
  out?: string;
  /** Recorded in the header as the build time; default now (the CLI takes SOURCE_DATE_EPOCH). */
  builtAt?: Date;
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
}

/**
 * Reads the catalog(s) into one model, refusing bad input (CatalogError), a row count over the
 * limit, a file without rows, and files that disagree about a code.
 */
export async function readCatalogs(paths: readonly string[], options: ReadOptions = {}): Promise<{ model: CatalogModel; sources: CatalogSourceInfo[] }> {
  if (!paths.length) throw new TypeError('readCatalogs needs at least one catalog path');
  const limits = { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, v]) => v !== undefined)) };
  const merge = new SourceMerge(paths.length > 1);
  const model = new CatalogModel(paths[0]!);
  const sources: CatalogSourceInfo[] = [];
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
      if (merge.accept(row)) model.add(row);
      if (options.onProgress && rows % 10_000 === 0) options.onProgress(rows);
    }
    if (!rowsHere) throw new CatalogError(reader.where, 'has a header but no data rows');
    merge.end();
    sources.push(reader.info());
  }
  return { model, sources };
}

/** Reads the catalog(s) and compiles them into the artifact's bytes, writing nothing (`cpmx serve --refresh-every` checks them first). */
export async function compileArtifact(paths: readonly string[], builtAt: Date, options: ReadOptions = {}): Promise<{ bytes: Buffer; header: ArtifactHeader }> {
  const { model, sources } = await readCatalogs(paths, options);
  const artifact = model.toArtifact(provenance(sources, builtAt));
  return { bytes: encodeArtifact(artifact), header: artifact.header };
}

/** Compiles the catalog(s) at `source` into the artifact at `out`; throws CatalogError on bad input. */
export async function buildArtifact({ source, out = defaultArtifactPath(), builtAt = new Date(), ...options }: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const paths = typeof source === 'string' ? [source] : [...source];
  // The catalogs are never written over (`-` is stdin); a path that cannot be written is
  // refused before the catalog is read, not after.
  const inputs = paths.map((path) => (path === '-' ? 0 : path));
  checkArtifactPath(resolve(out), inputs);
  const compiled = await compileArtifact(paths, builtAt, options);
  const bytes = writeFileAtomic(resolve(out), compiled.bytes, inputs);
  const { header } = compiled;
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
  };
}

export { ArtifactWriteError, CatalogError, defaultCatalogPaths };

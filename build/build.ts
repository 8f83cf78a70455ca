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
import { decodeCatalog } from '../src/core/catalog.js';
import type { HistorySummary } from '../src/core/catalog-history.js';
import { readCorrections } from './corrections.js';
import { catalogHistory } from './history.js';
import { openCatalog } from './open-catalog.js';
import { provenance } from './provenance.js';
import { readCatalogs, type ReadOptions } from './read-catalogs.js';
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

export interface BuildOptions extends CompileOptions {
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
  /** Corrections applied (0 without --corrections). */
  corrections: number;
  /** With --previous: the codes recorded as retired and as added since an earlier catalog. */
  history: HistorySummary | undefined;
}

export interface CompileOptions extends Omit<ReadOptions, 'corrections'> {
  /** A corrections file (CSV, build/corrections.ts) to apply; refused wholly if any row does not apply. */
  corrections?: string | undefined;
  /** Earlier catalogs (files or artifacts) whose codes this one lacks are recorded as retired (build/history.ts). */
  previous?: readonly string[] | undefined;
}

/** Reads the catalog(s) and compiles them into the artifact's bytes, writing nothing (`cpmx serve --refresh-every` checks them first). */
export async function compileArtifact(paths: readonly string[], builtAt: Date, { corrections, previous = [], ...options }: CompileOptions = {}): Promise<{ bytes: Buffer; header: ArtifactHeader }> {
  const correctionsFile = corrections === undefined ? undefined : await readCorrections(corrections);
  const { model, sources, corrections: applied } = await readCatalogs(paths, { ...options, corrections: correctionsFile });
  const artifact = model.toArtifact({ ...provenance(sources, builtAt), ...(applied ? { corrections: applied } : {}) });
  let bytes = encodeArtifact(artifact);
  if (previous.length) {
    const earlier = [];
    for (const path of previous) earlier.push({ catalog: await openCatalog(path, options), path });
    const { data, summary } = catalogHistory(decodeCatalog(bytes, paths.join(' + ')), paths.join(' + '), earlier);
    artifact.header.history = summary;
    artifact.history = Buffer.from(JSON.stringify(data));
    bytes = encodeArtifact(artifact);
  }
  return { bytes, header: artifact.header };
}

/** Compiles the catalog(s) at `source` into the artifact at `out`; throws CatalogError on bad input. */
export async function buildArtifact({ source, out = defaultArtifactPath(), builtAt = new Date(), corrections, previous = [], ...options }: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const paths = typeof source === 'string' ? [source] : [...source];
  // The catalogs (and the corrections and earlier catalogs) are never written over (`-` is
  // stdin); a path that cannot be written is refused before anything is read, not after.
  const inputs = [...paths, ...(corrections ? [corrections] : []), ...previous].map((path) => (path === '-' ? 0 : path));
  checkArtifactPath(resolve(out), inputs);
  const compiled = await compileArtifact(paths, builtAt, { ...options, corrections, previous });
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
    corrections: header.corrections?.applied.length ?? 0,
    history: header.history,
  };
}

export { ArtifactWriteError, CatalogError, defaultCatalogPaths, readCatalogs, type ReadOptions };

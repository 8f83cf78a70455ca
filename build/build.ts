/**
 * `cpmx build`: find the catalog, read it (one file, or several per-state files merged), model
 * it, write the artifact atomically.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalog } from '../src/client/catalog-source.js';
import { ArtifactError } from '../src/core/catalog.js';
import type { DroppedCorrection, HistorySummary } from '../src/core/catalog-history.js';
import { defaultArtifactPath } from '../src/paths.js';
import { compileSuccessor, type Predecessor } from './carry-forward.js';
import { compileArtifact, compileCatalog, type CompileOptions, type Compiled } from './compile.js';
import { ArtifactWriteError, CatalogError } from './errors.js';
import { defaultCatalogPaths } from './locations.js';
import { readCatalogs, type ReadOptions } from './read-catalogs.js';
import { checkArtifactPath, writeFileAtomic } from './write.js';

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
  /** Build as the successor of the artifact at `out` (build/carry-forward.ts): its corrections re-applied, its history carried forward. */
  update?: boolean;
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
  /** With `update`: the artifact's corrections that no longer apply, dropped now. */
  dropped: DroppedCorrection[];
  /** With --previous: the codes recorded as retired and as added since an earlier catalog. */
  history: HistorySummary | undefined;
}

/** Compiles the catalog(s) at `source` into the artifact at `out`; throws CatalogError on bad input. */
export async function buildArtifact({ source, out = defaultArtifactPath(), builtAt = new Date(), corrections, previous = [], update = false, ...options }: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const paths = typeof source === 'string' ? [source] : [...source];
  // The catalogs (and the corrections and earlier catalogs) are never written over (`-` is
  // stdin); a path that cannot be written is refused before anything is read, not after.
  const inputs = [...paths, ...(corrections ? [corrections] : []), ...previous].map((path) => (path === '-' ? 0 : path));
  checkArtifactPath(resolve(out), inputs);
  const compiled = update ? await compileSuccessor(paths, builtAt, predecessorAt(resolve(out)), options) : await compileArtifact(paths, builtAt, { ...options, corrections, previous });
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
    dropped: compiled.dropped,
    history: header.history,
  };
}

/** The artifact `--update` builds the successor of; CatalogError when there is none to read. */
function predecessorAt(path: string): Predecessor {
  try {
    return { catalog: loadCatalog(path), path };
  } catch (error) {
    if (!(error instanceof ArtifactError)) throw error;
    throw new CatalogError(path, `--update builds over the artifact there, and it cannot be read (${error.reason}); build without --update first`);
  }
}

export { ArtifactWriteError, CatalogError, compileArtifact, compileCatalog, defaultCatalogPaths, readCatalogs, type CompileOptions, type Compiled, type ReadOptions };

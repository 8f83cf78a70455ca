/**
 * `cpmx build`: find the catalog, read it, model it, write the artifact atomically.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { ArtifactWriteError, CatalogError } from './errors.js';
import { CatalogModel } from './model.js';
import { CatalogReader } from './reader.js';
import { encodeArtifact, writeFileAtomic } from './write.js';

/** Where `cpmx build` writes by default: where the installed package's lookups read (src/default-artifact.ts). */
export const defaultArtifactPath = join(packageRoot, 'data', 'cpmx.msgpack');

/** Where the catalog is looked for when neither `--source` nor `CPMX_CATALOG` names one. */
export const defaultCatalogPaths: readonly string[] = [
  join(packageRoot, 'data', 'CPdescarga.txt'),
  join(packageRoot, 'data', 'CPdescargatxt.zip'),
  // This repository's own development keeps the real catalog beside the checkout. An installed
  // package is no git checkout, so it never looks outside itself (and a dependency's parent
  // folder is the app's node_modules).
  ...(existsSync(join(packageRoot, '.git')) ? [join(packageRoot, '..', 'shared', 'data', 'sepomex', 'CPdescargatxt.zip')] : []),
];

export interface CatalogLocation {
  path: string;
  /** How it was chosen: `--source`, `CPMX_CATALOG`, or `default`. */
  from: '--source' | 'CPMX_CATALOG' | 'default';
}

/**
 * The catalog to read, by the documented order; undefined when no default exists. A path
 * given explicitly is returned even when missing, so the reader can say it is missing.
 */
export function findCatalog(source?: string, env: NodeJS.ProcessEnv = process.env, defaults: readonly string[] = defaultCatalogPaths): CatalogLocation | undefined {
  if (source) return { path: resolve(source), from: '--source' };
  if (env.CPMX_CATALOG) return { path: resolve(env.CPMX_CATALOG), from: 'CPMX_CATALOG' };
  const found = defaults.find((path) => existsSync(path));
  return found ? { path: found, from: 'default' } : undefined;
}

export interface BuildOptions {
  source: string;
  out?: string;
  /** Called every 10,000 rows. */
  onProgress?: (rows: number) => void;
}

export interface BuildSummary {
  source: string;
  out: string;
  encoding: 'latin1' | 'utf8';
  sha256: string;
  rows: number;
  codes: number;
  states: number;
  municipalities: number;
  bytes: number;
  milliseconds: number;
}

/** Compiles the catalog at `source` into the artifact at `out`; throws CatalogError on bad input. */
export async function buildArtifact({ source, out = defaultArtifactPath, onProgress }: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const reader = new CatalogReader(source);
  const model = new CatalogModel(reader.file);
  for await (const row of reader.rows()) {
    model.add(row);
    if (onProgress && model.rows % 10_000 === 0) onProgress(model.rows);
  }
  const info = reader.info();
  const artifact = model.toArtifact(info);
  const bytes = writeFileAtomic(resolve(out), encodeArtifact(artifact));
  return {
    source,
    out: resolve(out),
    encoding: info.encoding,
    sha256: info.sha256,
    rows: artifact.header.rows,
    codes: artifact.header.codes,
    states: artifact.header.states,
    municipalities: artifact.header.municipalities,
    bytes,
    milliseconds: performance.now() - started,
  };
}

export { ArtifactWriteError, CatalogError };

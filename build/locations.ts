/**
 * Where the catalog is looked for and downloaded to by default: beside the artifact, wherever
 * src/paths.ts puts that (the one place that decides where a package's data lives), plus, in
 * a git checkout, the development's shared copy. Every default of `cpmx build` and `cpmx download` comes
 * from here.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { packageRoot } from '../src/package-root.js';
import { defaultArtifactPath } from '../src/paths.js';

/** The directory the artifact is written to by default. */
export const dataDirectory = dirname(defaultArtifactPath());

/** Where `cpmx download` and `cpmx build --download` write the zip by default. */
export const defaultDownloadPath = join(dataDirectory, 'CPdescargatxt.zip');

/** Where the catalog is looked for when neither `--source` nor `CPMX_CATALOG` names one, in order. */
export const defaultCatalogPaths: readonly string[] = [
  join(dataDirectory, 'CPdescarga.txt'),
  defaultDownloadPath,
  // This repository's own development keeps the real catalog beside the checkout. An installed
  // package is no git checkout, so it never looks outside itself (and a dependency's parent
  // folder is the app's node_modules).
  ...(existsSync(join(packageRoot, '.git')) ? [join(packageRoot, '..', 'shared', 'data', 'sepomex', 'CPdescargatxt.zip')] : []),
];

/**
 * True for a path inside an installed package (node_modules): such paths are never suggested
 * as places to put a file, since a reinstall deletes them.
 */
export function insideNodeModules(path: string): boolean {
  return path.split(sep).includes('node_modules');
}

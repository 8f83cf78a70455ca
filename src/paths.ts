/** Where the package lives, so defaults work the same from `src/` (tsx) and `dist/src/` (node). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** The directory holding cpmx's own package.json. */
export const packageRoot = findPackageRoot(import.meta.dirname);

/** Where `cpmx build` writes the artifact and the runtime looks for it by default. */
export const defaultArtifactPath = join(packageRoot, 'data', 'cpmx.msgpack');

/** The artifact to read: the one given, else CPMX_DATA, else the package's own (absolute). */
export function artifactPath(given?: string | undefined): string {
  return resolve(given ?? (process.env.CPMX_DATA || defaultArtifactPath));
}

let version: string | undefined;

/** cpmx's version, from its package.json. */
export function packageVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      version = '0';
    }
  }
  return version;
}

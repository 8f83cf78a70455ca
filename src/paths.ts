/**
 * Which artifact a lookup reads when none is given as bytes: the path given, else CPMX_DATA,
 * else the installed package's own (src/default-artifact.ts says how that is found).
 */
import { resolve } from 'node:path';
import { packageArtifactPath } from './default-artifact.js';
import { VERSION } from './version.js';

/** Where the package's own artifact is read from by default (absolute). */
export const defaultArtifactPath = packageArtifactPath();

/** The artifact to read: the one given, else CPMX_DATA, else the package's own (absolute). */
export function artifactPath(given?: string | undefined): string {
  return resolve(given ?? (process.env.CPMX_DATA || defaultArtifactPath));
}

/** cpmx's version. */
export function packageVersion(): string {
  return VERSION;
}

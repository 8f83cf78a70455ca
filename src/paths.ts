/**
 * Which artifact a lookup reads when none is given as bytes: the path given, else CPMX_DATA,
 * else the installed package's own (src/default-artifact.ts says how that is found). Resolved
 * when first asked, never at import, so that loading cpmx cannot throw.
 */
import { ArtifactError } from './core/catalog.js';
import { packageArtifactPath } from './default-artifact.js';
import { nodePath } from './node-builtins.js';
import { VERSION } from './version.js';

/** What the package's own artifact is called where its file cannot be located. */
export const OWN_ARTIFACT = "cpmx's own data/cpmx.msgpack";

/**
 * Where the package's own artifact is read from by default (absolute); throws ArtifactError
 * inside a bundle that keeps no trace of the package's folder (a CommonJS bundle made of the ES module).
 */
export function defaultArtifactPath(): string {
  const path = packageArtifactPath();
  if (path === undefined) {
    throw new ArtifactError(
      OWN_ARTIFACT,
      'cannot be located from inside this bundle (a CommonJS bundle made of the ES module keeps no module URL); ' +
        'give the artifact to createClient: as dataPath (copy node_modules/cpmx/data/cpmx.msgpack beside the bundle), as data (its bytes), or set CPMX_DATA to its path',
    );
  }
  return path;
}

/** The artifact to read: the one given, else CPMX_DATA, else the package's own (absolute). */
export function artifactPath(given?: string | undefined): string {
  return nodePath().resolve(given ?? (process.env.CPMX_DATA || defaultArtifactPath()));
}

/** cpmx's version. */
export function packageVersion(): string {
  return VERSION;
}

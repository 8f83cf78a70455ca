/** What is said when an artifact cannot be read: the error, and how to make a good one. */

/** The artifact at `path` is missing, unreadable, foreign, truncated or of another version. */
export class ArtifactError extends Error {
  override readonly name = 'ArtifactError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Whether `error` is an ArtifactError of any copy of this module: the library's HTTP side is a
 * file of its own loaded at first use (dist/cpmx-http.js), with its own copy of the class, while
 * its source is the library's.
 */
export const isArtifactError = (error: unknown): error is ArtifactError => error instanceof Error && error.name === 'ArtifactError';

/** The official catalog's download page (format TXT, all states: CPdescargatxt.zip). */
export const CATALOG_URL = 'https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';
// Built by a call marked pure, so that a bundle which never uses it (cpmx/web) drops it and the URL:
// bundlers keep an unused template literal with a substitution, as if it might call a toString.
export const REBUILD = /* @__PURE__ */ (() => `run \`cpmx build\` to compile the catalog (\`npx cpmx download --out CPdescargatxt.zip\` fetches it from ${CATALOG_URL}; then \`npx cpmx build --source CPdescargatxt.zip --out FILE\` and CPMX_DATA=FILE keep the artifact outside node_modules)`)();

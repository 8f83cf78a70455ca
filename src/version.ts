/**
 * cpmx's version, part of every ETag and of `cpmx --version`. A constant rather than a read of
 * package.json, because an app's bundle, an edge runtime or a browser has no package.json
 * beside the code; `npm run compile` refuses to bundle when it differs from package.json's.
 */
export const VERSION = '0.1.0';

/**
 * Node's built-in modules as the library's lookup path gets them: at first use, not by an ES
 * `import … from 'node:…'` (but `node:module`'s, below). Such an import builds the module's ES facade, which reads every
 * export (`node:fs`'s loads fs/promises and the streams, about 1.5 ms of a cold start), and the
 * first built-in an ES module imports at all costs it about a quarter of a millisecond more.
 * `process.getBuiltinModule` (Node 20.16, 22.3) hands the CommonJS module itself; older Nodes
 * get it through `createRequire`. Nothing here runs at import.
 *
 * The CommonJS bundles get a variant with the same exports that calls `require` itself
 * (scripts/bundle.mjs). `node:module` stays a static import: it is the only way to `createRequire`
 * on Node before 20.16, and a top-level await of it (which would spare newer Nodes the import) is
 * more than file tracers such as @vercel/nft can read.
 */
import { createRequire } from 'node:module';

let required: NodeJS.Require | undefined;

function builtin<T>(name: string): T {
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule(name) as T;
  // The base only matters to files: a built-in resolves from anywhere. No import.meta here: an
  // app's CommonJS bundle of this module (webpack's) would not even parse.
  return (required ??= createRequire('/'))(name) as T;
}

export const nodeFs = (): typeof import('node:fs') => builtin('node:fs');
export const nodePath = (): typeof import('node:path') => builtin('node:path');
export const nodeUrl = (): typeof import('node:url') => builtin('node:url');
export const nodeWorkerThreads = (): typeof import('node:worker_threads') => builtin('node:worker_threads');

/**
 * A CommonJS file of the package's own, by its absolute path (the geo codec's). A require made
 * once from a constant and kept: webpack, bundling an app with this file, warns of
 * createRequire(variable) and of a direct call with an expression; a kept require is opaque
 * to it.
 */
export const requireFile = (path: string): unknown => (required ??= createRequire('/'))(path);

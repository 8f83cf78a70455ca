/**
 * Node's `fs` for reading the artifact, got at first use. An ES module's
 * `import … from 'node:fs'` builds the module's ES facade, which reads every export,
 * `fs.promises` included: that loads fs/promises and the streams, about 1.5 ms of a cold start
 * (import, open, first answer) that reading one file does not need (`node:zlib`, which the
 * artifact's check once used, loads the streams too: pages.ts). `process.getBuiltinModule` (Node 20.16, 22.3) hands the CommonJS module itself;
 * older Nodes get it through `createRequire`. Nothing here runs at import.
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
export const nodeWorkerThreads = (): typeof import('node:worker_threads') => builtin('node:worker_threads');

/**
 * A CommonJS file of the package's own, by its absolute path (deferred-file.ts, the geo
 * codec's). A require made once from a constant and kept: webpack, bundling an app with this
 * file, warns of createRequire(variable) and of a direct call with an expression; a kept
 * require is opaque to it.
 */
export const requireFile = (path: string): unknown => (required ??= createRequire('/'))(path);

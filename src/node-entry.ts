/**
 * The library's ES module entry for Node (dist/cpmx.js): the CommonJS bundle (dist/cpmx.cjs),
 * compiled with the bytecode shipped beside it (dist/cpmx.cjs.cache, made by
 * scripts/code-cache.mjs when the package is compiled: it holds what importing cpmx,
 * `createClient` and a first `infoCp` compile). Parsing and compiling are most of a cold
 * start's own time; with the bytecode, a first answer compiles almost nothing
 * (docs/performance.md). scripts/bundle.mjs writes the entry's named exports from the bundle's.
 *
 * Only cpmx's own file is compiled this way: nothing is turned on for the host's modules, and
 * nothing is written at run time. Where the bytecode cannot be used (another Node, other V8
 * flags, a bundle edited since) or NODE_DISABLE_COMPILE_CACHE is set, as Node's own compile
 * cache is turned off, the bundle is compiled from its source: the same code, the same
 * answers.
 *
 * One instance for both module systems: the bundle is in require's cache, so `require('cpmx')`
 * in the same process gets these same exports, and an import after a require gets the
 * required ones.
 */
import { bytecodeFor, runCommonJs, type NodeParts } from './commonjs-script.js';

type Builtin = <T>(name: string) => T;

/**
 * Node's own modules by `process.getBuiltinModule` (Node 20.16 and later): an ES import of
 * `node:module` would build its ES facade first, about 0.4 ms of a cold start.
 */
const builtin = (process as { getBuiltinModule?: Builtin }).getBuiltinModule;

/**
 * Whether the bundle can be run here as a script: in Node (not Bun or Deno, whose V8 or
 * JavaScriptCore take no such bytecode), with `process.getBuiltinModule`, in Node's own context.
 * A test runner that runs ES modules in a context of its own (Jest's `vm` modules) gets the
 * bundle through its own loader instead, so its objects are of that context's realm.
 */
function runnable(): boolean {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (!builtin || runtime.Bun || runtime.Deno) return false;
  return builtin<typeof import('node:vm')>('node:vm').runInThisContext('globalThis') === globalThis;
}

/** The bundle's exports, compiled with its shipped bytecode where it can be used. */
function load(): Record<string, unknown> {
  const node: NodeParts = { module: builtin!('node:module'), vm: builtin!('node:vm'), path: builtin!('node:path') };
  const { readFileSync } = builtin!<typeof import('node:fs')>('node:fs');
  // A path made from the URL, not require.resolve: resolving costs about 0.4 ms of a cold start.
  const file = builtin!<typeof import('node:url')>('node:url').fileURLToPath(new URL('./cpmx.cjs', import.meta.url));
  // Required already (a require('cpmx') before this import): the same instance.
  if ((node.module as unknown as { _cache: Record<string, unknown> })._cache[file]) return node.module.createRequire(file)(file);
  let source: Buffer;
  try {
    source = readFileSync(file);
  } catch {
    // As require() would say it.
    return node.module.createRequire(file)(file);
  }
  let bytecode: Buffer | undefined;
  try {
    // Turned off as Node's own compile cache is: compiled from its source, as on another Node.
    bytecode = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : bytecodeFor(readFileSync(new URL('./cpmx.cjs.cache', import.meta.url)), source);
  } catch {
    // No bytecode shipped (a build that made none): compiled from its source.
    bytecode = undefined;
  }
  // The bundle is ASCII (scripts/bundle.mjs refuses anything else): Latin-1 reads it as it is.
  return runCommonJs(file, source.toString('latin1'), bytecode, node).exports as Record<string, unknown>;
}

/**
 * Elsewhere (Node before 20.16, Bun, Deno, a test runner's own context), the bundle as an ES
 * import of CommonJS gives it: a top-level await only there. File tracers follow this literal
 * import to dist/cpmx.cjs and all it requires.
 */
export const library: Record<string, unknown> = runnable() ? load() : ((await import('./cpmx.cjs' as string)) as { default: Record<string, unknown> }).default;

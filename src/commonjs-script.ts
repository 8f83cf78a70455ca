/**
 * A CommonJS file of the package's own, run as `require()` runs it but compiled as a V8 script
 * with bytecode V8 made on an earlier run (`cachedData`): what that run compiled is then neither
 * parsed nor compiled again. Used by the library's ES module entry for Node (node-entry.ts, with
 * the bytecode shipped beside the bundle) and by the command line for its lookups
 * (cli/code-cache.ts, with bytecode kept in a folder of the user's own).
 *
 * V8 refuses bytecode it did not make: another V8 version, other flags, a source of another
 * length (`script.cachedDataRejected`), and then compiles the source as without it. A file
 * of shipped bytecode also holds the source it was made from, compared byte for byte before
 * it is used, so an edited bundle (of the same length, even) never meets old bytecode.
 */
/**
 * Node's own modules, as the caller has them: the ES module entry by `process.getBuiltinModule`
 * (an ES `import` of `node:module` would build its facade, about 0.4 ms of a cold start), the
 * command line by `require`.
 */
export interface NodeParts {
  module: typeof import('node:module');
  vm: typeof import('node:vm');
  path: typeof import('node:path');
}

type ModuleClass = typeof import('node:module') & {
  new (id: string): NodeJS.Module;
  wrap(source: string): string;
  _nodeModulePaths(from: string): string[];
};

export interface ScriptRun {
  exports: unknown;
  /** The compiled script: `createCachedData()` gives the bytecode of all it has compiled so far. */
  script: import('node:vm').Script;
}

/**
 * Runs `source` (the text of `file`) as `require(file)` would: its own module object in
 * require's cache (a later `require(file)` gets the same exports), `require` relative to it,
 * `__dirname` beside it. The file must hold no `import()`: a script compiled here has no module
 * loader for it (scripts/bundle.mjs refuses one in the files it is used for).
 */
export function runCommonJs(file: string, source: string, cachedData: Buffer | undefined, node: NodeParts): ScriptRun {
  const Module = node.module as unknown as ModuleClass;
  const require = Module.createRequire(file);
  const script = new node.vm.Script(Module.wrap(source), { filename: file, cachedData });
  const dirname = node.path.dirname(file);
  const module = new Module(file) as NodeJS.Module & { filename: string; paths: string[]; loaded: boolean };
  module.filename = file;
  module.paths = Module._nodeModulePaths(dirname);
  require.cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(module.exports, module.exports, require, module, file, dirname);
  } catch (error) {
    // As require() does: a file that failed is not kept as loaded.
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  return { exports: module.exports, script };
}

/** A file of shipped bytecode: this mark, the source's length, the source, the bytecode. */
const MARK = Buffer.from('cpmx-bytecode-1\n', 'latin1');

/** The file of shipped bytecode for `source` (the bytes of the file it was made from). */
export function packBytecode(source: Buffer, bytecode: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(source.length);
  return Buffer.concat([MARK, length, source, bytecode]);
}

/** The bytecode in `shipped` when it was made from exactly `source`; undefined otherwise. */
export function bytecodeFor(shipped: Buffer, source: Buffer): Buffer | undefined {
  const from = MARK.length + 4;
  if (shipped.length <= from || !shipped.subarray(0, MARK.length).equals(MARK)) return undefined;
  const length = shipped.readUInt32LE(MARK.length);
  if (length !== source.length || shipped.length <= from + length) return undefined;
  return shipped.subarray(from, from + length).equals(source) ? shipped.subarray(from + length) : undefined;
}

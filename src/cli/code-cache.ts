/**
 * The command line's own code cache where Node has none (Node 20; 22.1 and later have
 * `module.enableCompileCache`, which compile-cache.ts turns on instead): a lookup's file is
 * compiled with the bytecode V8 made for it on an earlier run, which spares parsing and
 * compiling most of it (about a third of what a lookup adds to Node's own start). Only the
 * command line does this, for its own process and its own file.
 *
 * The cache is a folder of this user's in the temporary folder, used only when it is a real
 * folder (not a link), owned by this user and writable by no one else: no one else can plant
 * bytecode in it. A cache entry is named by the file's size, modification time and inode and
 * by Node's version, so a file rewritten by an upgrade never meets old bytecode; V8 checks its
 * own version and flags too, and refuses data it did not make. Anything that goes wrong
 * (no such folder, a full disk, data refused) only means compiling as without a cache.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it turns off Node's own.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import * as vm from 'node:vm';
import { runCommonJs } from '../commonjs-script.js';

type WithCompileCache = { enableCompileCache?: unknown };

/** This user's cache folder, made if missing; undefined where it cannot be trusted. */
function cacheFolder(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const folder = nodePath.join(tmpdir(), `cpmx-code-cache-${uid}`);
  try {
    let found = lstatSync(folder, { throwIfNoEntry: false });
    if (found === undefined) {
      mkdirSync(folder, { mode: 0o700 });
      found = lstatSync(folder);
    }
    return found.isDirectory() && found.uid === uid && (found.mode & 0o022) === 0 ? folder : undefined;
  } catch {
    return undefined;
  }
}

/** The file's text and the name of its cache entry. */
function readSource(file: string): { source: string; entry: string } {
  const stats = statSync(file);
  const entry = `${nodePath.basename(file)}-${stats.size}-${Math.trunc(stats.mtimeMs)}-${stats.ino}-${process.version}-${process.arch}.bin`;
  return { source: readFileSync(file, 'utf8'), entry };
}

/**
 * `require(file)` (a CommonJS file of the package's own), through the cache where Node has no
 * compile cache of its own. `settle()`, called once the command has run, writes the cache
 * entry when there was none (its bytecode then holds the functions the run compiled).
 */
export function requireCached(file: string): { exports: unknown; settle(): void } {
  const nodeModule = Module as unknown as WithCompileCache;
  const require = createRequire(file);
  const folder = typeof nodeModule.enableCompileCache === 'function' ? undefined : cacheFolder();
  if (folder === undefined) return { exports: require(file), settle() {} };
  const { source, entry } = readSource(file);
  const path = nodePath.join(folder, entry);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(path);
  } catch {
    cachedData = undefined;
  }
  // The file holds no import() (scripts/bundle.mjs refuses one): a script has no module loader for it.
  const { exports, script } = runCommonJs(file, source, cachedData, { module: Module, vm, path: nodePath });
  return {
    exports,
    settle() {
      if (cachedData !== undefined && !script.cachedDataRejected) return;
      const fresh = nodePath.join(folder, `${entry}.${process.pid}.tmp`);
      try {
        writeFileSync(fresh, script.createCachedData(), { mode: 0o600, flag: 'wx' });
        renameSync(fresh, path);
        // Entries of this file as it was before (an upgrade, a rebuild) are never read again.
        const stale = (name: string) => name.startsWith(`${nodePath.basename(file)}-`) && name.endsWith('.bin') && name !== entry;
        for (const name of readdirSync(folder).filter(stale)) rmSync(nodePath.join(folder, name), { force: true });
      } catch {
        // The next run compiles as this one did.
        rmSync(fresh, { force: true });
      }
    },
  };
}

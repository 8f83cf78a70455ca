/**
 * Makes dist/cpmx.cjs.cache: the bytecode V8 makes for dist/cpmx.cjs while it is imported, a
 * client is created and a first infoCp answered (each kind), which src/node-entry.ts then
 * compiles the bundle with (src/commonjs-script.ts holds the file's format). Run by
 * scripts/bundle.mjs after the bundles are built, and by scripts/prepare.mjs once the artifact
 * is built, so the answer's own functions are in it. With no artifact yet, the bytecode holds
 * what importing compiles. Run in a child Node with no flags and no NODE_OPTIONS: V8 refuses
 * bytecode made under other flags than those of the process that reads it, and a plain
 * `node app.js` has none.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'cpmx.cjs');
const shipped = `${bundle}.cache`;

if (process.argv[2] !== '--child') {
  const env = { ...process.env, CPMX_NO_AGE_WARNING: '1' };
  delete env.NODE_OPTIONS;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  delete env.CPMX_DATA;
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child'], { cwd: root, env, stdio: 'inherit' });
} else {
  const { packBytecode, runCommonJs } = await import(pathToFileURL(join(root, 'dist', 'src', 'commonjs-script.js')).href);
  const source = readFileSync(bundle);
  const node = { module: process.getBuiltinModule('node:module'), vm: process.getBuiltinModule('node:vm'), path: process.getBuiltinModule('node:path') };
  const { exports, script } = runCommonJs(bundle, source.toString('latin1'), undefined, node);
  if (existsSync(join(root, 'data', 'cpmx.msgpack'))) {
    // What a first lookup runs: both kinds of answer, and a code the catalog has not. An
    // artifact that cannot answer (damaged, of another format) only leaves less in the bytecode.
    try {
      const client = exports.createClient();
      client.infoCp('09810', { type: 'simplified' });
      client.infoCp('09810');
      client.infoCp('00000');
    } catch (error) {
      process.stderr.write(`scripts/code-cache.mjs: the package's artifact did not answer (${error.message}): the bytecode holds what importing compiles\n`);
    }
  }
  const fresh = `${shipped}.${process.pid}.tmp`;
  try {
    writeFileSync(fresh, packBytecode(source, script.createCachedData()));
    renameSync(fresh, shipped);
  } finally {
    rmSync(fresh, { force: true });
  }
}

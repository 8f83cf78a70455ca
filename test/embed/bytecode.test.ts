/**
 * The library's ES module entry runs the CommonJS bundle with the bytecode shipped beside it
 * (src/node-entry.ts, scripts/code-cache.mjs): the bytecode is this bundle's and this Node takes
 * it; a bundle edited since (of the same length, which V8's own check lets through) never runs
 * old bytecode; bytecode missing, cut short or turned off changes no answer; both module systems
 * get one instance. Runs against dist/ (npm run compile), each case in a fresh Node with no
 * flags, as an app starts.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { root, tempDir } from '../helpers.js';

const dist = join(root, 'dist');
const dataPath = join(root, 'data', 'cpmx.msgpack');
const { bytecodeFor } = (await import(pathToFileURL(join(dist, 'src', 'commonjs-script.js')).href)) as typeof import('../../src/commonjs-script.js');

/** Runs an ES module snippet in a fresh Node with no flags (V8 takes bytecode only under the flags it was made with). */
function node(code: string, env: Record<string, string> = {}): string {
  const clean: NodeJS.ProcessEnv = { ...process.env, CPMX_NO_AGE_WARNING: '1', ...env };
  delete clean.NODE_OPTIONS;
  if (!('NODE_DISABLE_COMPILE_CACHE' in env)) delete clean.NODE_DISABLE_COMPILE_CACHE;
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: clean });
}

/** A copy of the library's Node files in a folder of its own, to damage. */
function copyOfLibrary(): string {
  const dir = tempDir();
  for (const file of ['cpmx.js', 'cpmx.cjs', 'cpmx.cjs.cache', 'cpmx-deferred.cjs']) copyFileSync(join(dist, file), join(dir, file));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  return dir;
}

/** What a first lookup of a code the catalog has not answers, through the ES entry at `dir`. */
const notFound = (dir: string, env?: Record<string, string>) =>
  node(`const { createClient } = await import(${JSON.stringify(pathToFileURL(join(dir, 'cpmx.js')).href)}); const c = createClient({ dataPath: ${JSON.stringify(dataPath)} }); console.log(JSON.stringify([c.infoCp('99999'), c.infoCp('09810', { type: 'simplified' })]));`, env);

describe('the bytecode shipped with the ES module entry', () => {
  it("is this bundle's, and this Node takes it", () => {
    const source = readFileSync(join(dist, 'cpmx.cjs'));
    const bytecode = bytecodeFor(readFileSync(join(dist, 'cpmx.cjs.cache')), source);
    expect(bytecode?.length).toBeGreaterThan(10_000);
    const taken = node(`
      import { readFileSync } from 'node:fs';
      import Module from 'node:module';
      import { Script } from 'node:vm';
      const source = readFileSync(${JSON.stringify(join(dist, 'cpmx.cjs'))}, 'latin1');
      const cache = readFileSync(${JSON.stringify(join(dist, 'cpmx.cjs.cache'))});
      const from = cache.length - ${bytecode?.length ?? 0};
      const script = new Script(Module.wrap(source), { filename: 'cpmx.cjs', cachedData: cache.subarray(from) });
      console.log(script.cachedDataRejected);
    `);
    expect(taken.trim()).toBe('false');
  });

  it('is never run for a bundle edited since, even one of the same length: the edit is what runs', () => {
    const dir = copyOfLibrary();
    const bundle = join(dir, 'cpmx.cjs');
    const text = readFileSync(bundle, 'latin1');
    const message = 'No se encontr\\xF3 el cp"';
    expect(text).toContain(message);
    writeFileSync(bundle, text.replace(message, 'No se encontr\\xF3 el CP"'), 'latin1');
    expect(readFileSync(bundle).length).toBe(text.length);
    const [missing, found] = JSON.parse(notFound(dir));
    expect(missing).toMatchObject({ error: true, code_error: 105, error_message: 'No se encontró el CP' });
    expect(found.error).toBe(false);
  });

  it('missing, cut short or turned off (NODE_DISABLE_COMPILE_CACHE=1) changes no answer', () => {
    const expected = notFound(dist);
    expect(JSON.parse(expected)[0]).toMatchObject({ code_error: 105, error_message: 'No se encontró el cp' });
    expect(notFound(dist, { NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(expected);
    const cut = copyOfLibrary();
    truncateSync(join(cut, 'cpmx.cjs.cache'), 100);
    expect(notFound(cut)).toBe(expected);
    const none = copyOfLibrary();
    writeFileSync(join(none, 'cpmx.cjs.cache'), '');
    expect(notFound(none)).toBe(expected);
  });

  it("is not used in a test runner's own context (Jest's ES modules): the bundle comes through the runner, its answers of that context's realm", () => {
    const runner = join(root, 'test', 'embed', 'apps', 'vm-context.mjs');
    const clean: NodeJS.ProcessEnv = { ...process.env, CPMX_NO_AGE_WARNING: '1' };
    delete clean.NODE_OPTIONS;
    const out = execFileSync(process.execPath, ['--experimental-vm-modules', '--no-warnings', runner, dist, dataPath], { encoding: 'utf8', env: clean });
    expect(JSON.parse(out)).toEqual({ cp: '09810', ofContext: true });
  });

  it('leaves one instance for both module systems, whichever loads first', () => {
    const esm = JSON.stringify(pathToFileURL(join(dist, 'cpmx.js')).href);
    const cjs = JSON.stringify(join(dist, 'cpmx.cjs'));
    const same = (first: string, second: string) =>
      `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); const a = ${first}; const b = ${second}; console.log(a.createClient === b.createClient && a.ArtifactError === b.ArtifactError && typeof a.createClient === 'function');`;
    expect(node(same(`await import(${esm})`, `require(${cjs})`)).trim()).toBe('true');
    expect(node(same(`require(${cjs})`, `await import(${esm})`)).trim()).toBe('true');
  });
});

/**
 * What a cold lookup loads, in bytes of cpmx's own files (issue 36): the work of parsing and
 * compiling grows with them whatever the machine's load, so a budget on them holds where a
 * timed test would not. `import { createClient } from 'cpmx'` and its first answer (ES module
 * and CommonJS), and `cpmx info_cp` as a process, each recorded as the files Node loads: a
 * module hook (`module.register`) writes every ES module's URL to a file; CommonJS files are
 * `require.cache`'s keys. The budgets are the measured sizes with a little room: a change
 * that puts something a lookup does not need back on its path fails here (load it at first
 * use instead, as the OpenAPI document's builder is). Runs against dist/ (npm run compile).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, root, tempDir } from '../helpers.js';

const dist = join(root, 'dist');
const dir = tempDir();
const hooks = join(dir, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.CPMX_LOADED_LOG, url + '\\n');
  return next(url, context);
}
`,
);
const register = join(dir, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
// CommonJS files (the command line's entry and its lookups' file): require.cache's keys, at exit.
const requireLog = join(dir, 'require-log.cjs');
writeFileSync(
  requireLog,
  `process.on('exit', () => require('node:fs').appendFileSync(process.env.CPMX_LOADED_LOG, Object.keys(require.cache).map((file) => require('node:url').pathToFileURL(file).href + '\\n').join('')));\n`,
);

/** cpmx's own files a run loads (those in dist/), each once, in the order they were loaded (ES modules first). */
function filesLoaded(args: string[]): string[] {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  execFileSync(process.execPath, ['--import', pathToFileURL(register).href, '--require', requireLog, ...args], { cwd: root, env: { ...process.env, CPMX_LOADED_LOG: log }, stdio: ['ignore', 'ignore', 'inherit'] });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((url) => fileURLToPath(url));
  return [...new Set(files)].filter((file) => file.startsWith(dist));
}

const bytesOf = (files: string[]) => files.reduce((sum, file) => sum + statSync(file).size, 0);

const FIRST_ANSWER = "const c = m.createClient(); if (c.infoCp('09810').length < 1) process.exit(1);";

/**
 * Bytes of cpmx's files on the library's lookup path (import, createClient, first infoCp):
 * 112,000 when it was set (122 KB before the HTTP side moved out); then the geocoding methods'
 * two rows, error texts and stand-ins (their code loads at the first geo call, dist/cpmx-geo.*)
 * added about 4.4 KB, and the catalog-age warning with the leading-zero hint about 2.4 KB
 * (CommonJS: 115,572 bytes). Re-set from that measurement; what grows it next must be a choice.
 * Then compiling the name readers' Unicode patterns at first use (core/lazy-pattern.ts) added
 * 460 bytes to save about 0.5 ms of parsing (CommonJS: 116,031). Since the client's methods
 * but a direct `infoCp` (the method table, the router, every other answer, test mode) are
 * dist/cpmx-deferred.cjs, required at the first call of one (src/client/deferred.ts), with the
 * catalog's code only their answers call: 61,174 bytes (CommonJS: 62,894). Artifact format 6
 * (a checksum per page, checked where a page is first read: core/pages.ts) brought them to
 * 71,429 (CommonJS: 73,069).
 */
const LIBRARY_BUDGET = 74_000;
/**
 * The ES module entry is a loader of 2.9 KB (src/node-entry.ts) that runs the CommonJS bundle
 * with the bytecode shipped beside it (dist/cpmx.cjs.cache): both files, 74,829 bytes when
 * set, of which a first answer with that bytecode parses and compiles almost none.
 */
const ES_LIBRARY_BUDGET = 76_000;
/**
 * Bytes of cpmx's files `cpmx info_cp 09810` loads: 140,000 when set (217 KB before commands
 * loaded on demand); the geocoding rows, the option checks (a negative value named) and the
 * leading-zero rule brought it to 144,099 in 27 files. Since a lookup is one file of its own
 * (dist/cli-lookup.cjs) beside the entry (dist/cli.cjs), 126,817 bytes in 2 files; the code
 * cache of Node 20 (src/cli/code-cache.ts, in the entry) and the spelling hints' package
 * bundled in (a script compiled with cached bytecode has no loader for an import()) brought
 * them to 134,481, of which a run with its cache compiles little. Artifact format 6's page
 * checks (core/pages.ts, and the reads through them) brought them to 145,156: what lets a lookup
 * read and check some forty pages of the file instead of the whole of it.
 */
const CLI_BUDGET = 146_500;

describe('the lookup path loads only what a lookup needs', () => {
  it('import of cpmx (ES module), createClient and a first answer stay within the budget, and load neither the HTTP handlers, the OpenAPI builder nor the deferred methods', () => {
    const files = filesLoaded(['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(dist, 'cpmx.js'))}); ${FIRST_ANSWER}`]);
    expect(files.map((file) => file.slice(dist.length + 1))).toEqual(['cpmx.js', 'cpmx.cjs']);
    expect(bytesOf(files)).toBeLessThanOrEqual(ES_LIBRARY_BUDGET);
  });

  it('require of cpmx (CommonJS), createClient and a first answer stay within the same budget', () => {
    const out = execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(join(dist, 'cpmx.cjs'))}); ${FIRST_ANSWER} console.log(JSON.stringify(Object.keys(require.cache)));`], { cwd: root, encoding: 'utf8' });
    const files = (JSON.parse(out) as string[]).filter((file) => file.startsWith(dist));
    expect(files.map((file) => file.slice(dist.length + 1))).toEqual(['cpmx.cjs']);
    expect(bytesOf(files)).toBeLessThanOrEqual(LIBRARY_BUDGET);
  });

  it('any other method loads the deferred file at its first call, the ES module and CommonJS alike, and answers as the first lookup did', () => {
    const other = "const c = m.createClient(); if (c.infoCp('09810').length < 1 || c.searchCp('0981').error || !Object.keys(c).includes('codeHistory')) process.exit(1);";
    const esm = filesLoaded(['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(dist, 'cpmx.js'))}); ${other}`]);
    expect(esm.map((file) => file.slice(dist.length + 1))).toEqual(['cpmx.js', 'cpmx.cjs', 'cpmx-deferred.cjs']);
    const cjs = filesLoaded(['-e', `const m = require(${JSON.stringify(join(dist, 'cpmx.cjs'))}); ${other}`]);
    expect(cjs.map((file) => file.slice(dist.length + 1))).toEqual(['cpmx.cjs', 'cpmx-deferred.cjs']);
  });

  it('cpmx info_cp loads its command, not the whole command table, within the budget: two files, the entry and the lookups\' own, both CommonJS', () => {
    const files = filesLoaded([CLI, 'info_cp', '09810', '--token', 'budget']);
    expect(files.map((file) => file.slice(dist.length + 1))).toEqual(['cli.cjs', 'cli-lookup.cjs']);
    const table = files.filter((file) => /\bvar COMMANDS = /.test(readFileSync(file, 'utf8')));
    expect(table).toEqual([]);
    expect(bytesOf(files)).toBeLessThanOrEqual(CLI_BUDGET);
  });

  it('every other command is still found through the whole table', () => {
    const out = execFileSync(process.execPath, [CLI, 'help', 'serve'], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/^Usage: cpmx serve/);
  });
});

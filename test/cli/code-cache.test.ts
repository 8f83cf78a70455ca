/**
 * The command line's own code cache (src/cli/code-cache.ts, issue 36 item 3): where Node has no
 * compile cache (Node 20), a lookup compiles its file with the bytecode of an earlier run, kept
 * in a folder of the user's own. What must hold: the answers are the same with and without it;
 * a folder others can write to, a link, bytes V8 did not make and NODE_DISABLE_COMPILE_CACHE
 * are never trusted or used; an entry of a file as it was before is removed. Where Node has its
 * own cache (22.1 and later), cpmx writes none.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers.js';

const nodeHasItsOwn = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const uid = process.getuid!();

/** `cpmx info_cp 09810 --type simplified` with TMPDIR at `tmp`: its stdout, after checking it succeeded. */
function lookup(tmp: string, env: NodeJS.ProcessEnv = {}): string {
  const run = spawnSync(process.execPath, [CLI, 'info_cp', '09810', '--type', 'simplified'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, ...env } });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return run.stdout;
}

const folderIn = (tmp: string) => join(tmp, `cpmx-code-cache-${uid}`);
const entriesIn = (tmp: string) => (existsSync(folderIn(tmp)) ? readdirSync(folderIn(tmp)) : []);

describe('the command line\'s code cache', () => {
  const base = tempDir();
  const plain = lookup(join(base, 'none'), { NODE_DISABLE_COMPILE_CACHE: '1' });

  it(nodeHasItsOwn ? 'is not cpmx\'s where Node has its own: no folder of cpmx\'s is made' : 'is made on the first lookup, private, and gives the same answer on the next', () => {
    const tmp = join(base, 'fresh');
    mkdirSync(tmp);
    expect(lookup(tmp)).toBe(plain);
    if (nodeHasItsOwn) {
      expect(existsSync(folderIn(tmp))).toBe(false);
      return;
    }
    expect(statSync(folderIn(tmp)).mode & 0o777).toBe(0o700);
    const [entry, ...more] = entriesIn(tmp);
    expect(more).toEqual([]);
    expect(entry).toMatch(/^cli-lookup\.cjs-\d+-\d+-\d+-v[\d.]+-\w+\.bin$/);
    expect(statSync(join(folderIn(tmp), entry!)).mode & 0o777).toBe(0o600);
    const written = readFileSync(join(folderIn(tmp), entry!));
    expect(lookup(tmp)).toBe(plain);
    // Used, not rewritten.
    expect(readFileSync(join(folderIn(tmp), entry!))).toEqual(written);
  });

  it('refuses bytes V8 did not make (answering as without them) and replaces them; removes entries of the file as it was', () => {
    const tmp = join(base, 'planted');
    mkdirSync(tmp);
    lookup(tmp);
    if (nodeHasItsOwn) {
      expect(existsSync(folderIn(tmp))).toBe(false);
      return;
    }
    const [entry] = entriesIn(tmp);
    const planted = Buffer.from('not bytecode at all, planted by someone '.repeat(100));
    writeFileSync(join(folderIn(tmp), entry!), planted);
    writeFileSync(join(folderIn(tmp), 'cli-lookup.cjs-1-2-3-v20.0.0-x64.bin'), 'an entry of an older build');
    expect(lookup(tmp)).toBe(plain);
    expect(entriesIn(tmp)).toEqual([entry]);
    expect(readFileSync(join(folderIn(tmp), entry!)).equals(planted)).toBe(false);
  });

  it('never uses a folder others may write to, a link, or any folder under NODE_DISABLE_COMPILE_CACHE', () => {
    const open = join(base, 'open');
    mkdirSync(folderIn(open), { recursive: true });
    chmodSync(folderIn(open), 0o777);
    expect(lookup(open)).toBe(plain);
    expect(entriesIn(open)).toEqual([]);

    const linked = join(base, 'linked');
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(linked);
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, folderIn(linked));
    expect(lookup(linked)).toBe(plain);
    expect(readdirSync(elsewhere)).toEqual([]);

    const off = join(base, 'off');
    mkdirSync(off);
    expect(lookup(off, { NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(plain);
    expect(existsSync(folderIn(off))).toBe(false);
  });
});

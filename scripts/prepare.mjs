/**
 * npm's `prepare`, run by `npm install` in a checkout and by an install from git (in npm's
 * clone, before it packs it): compiles, builds the artifact when a catalog is found, and
 * otherwise says the one command that gets data. npm shows a dependency's script output only
 * when it fails, so for an install from git the note also goes to the terminal, when there is
 * one. (The tarball, made by scripts/pack.mjs, carries no scripts at all.)
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
execFileSync('npm', ['run', 'compile'], { cwd: root, stdio: 'inherit' });
node([join(root, 'dist', 'cli.cjs'), 'build', '--if-found']);
// The bytecode of a first answer, now that there may be an artifact to answer with (scripts/code-cache.mjs).
node([join(root, 'scripts', 'code-cache.mjs')]);

if (!existsSync(join(root, 'data', 'cpmx.msgpack'))) {
  const note =
    '\ncpmx: installed without data: the catalog\'s terms forbid shipping it, and no catalog was found to build from.\n' +
    'cpmx: get it with one command: npx cpmx build --download\n' +
    'cpmx: (test mode, token "pruebas", works without it; `npx cpmx build --download --out FILE` with CPMX_DATA=FILE keeps it outside node_modules)\n\n';
  process.stderr.write(note);
  if (!process.stderr.isTTY) {
    try {
      const tty = openSync('/dev/tty', 'w');
      writeSync(tty, note);
      closeSync(tty);
    } catch {
      // No terminal (CI, a service): the first lookup says the same (src/client/catalog-source.ts).
    }
  }
}

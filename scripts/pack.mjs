/**
 * `npm run tarball [-- --pack-destination DIR]`: the package as users install it, cpmx-X.Y.Z.tgz.
 *
 * Made from a copy, never from the checkout itself: the files `npm pack` would take (package.json's
 * `files`), with a package.json stripped of what only development uses: its scripts (`prepare`
 * compiles a git checkout; in a tarball npm lists it as an install script awaiting approval and
 * warns at every install), devDependencies, overrides and allowScripts. The checkout's own files
 * are never touched, so test files may pack at the same time. A plain `npm pack` would keep all
 * of those: `prepack` (this script with --refuse) stops it and says to run this.
 *
 * It needs a built checkout (dist/ and data/cpmx.msgpack: `npm install` makes both) and prints
 * the tarball's path, or with --json npm's own report of it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--pack-destination');
const destination = resolve(at === -1 ? root : args[at + 1]);
const json = args.includes('--json');

if (args.includes('--refuse')) {
  console.error('cpmx: make the tarball with `npm run tarball`: a plain `npm pack` ships the development scripts (`prepare`), which npm flags at every install of it');
  process.exit(1);
}

for (const needed of ['dist/cpmx.js', 'dist/cli.cjs', 'data/cpmx.msgpack']) {
  if (!existsSync(join(root, needed))) {
    console.error(`cpmx tarball: ${needed} is missing: run \`npm install\` (it compiles and builds the artifact from the catalog), or \`npm run compile\` and \`npx cpmx build\``);
    process.exit(1);
  }
}

const npm = (cwd, npmArgs) => execFileSync('npm', npmArgs, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const [listed] = JSON.parse(npm(root, ['pack', '--dry-run', '--json', '--ignore-scripts']));
const stage = mkdtempSync(join(tmpdir(), 'cpmx-pack-'));
try {
  for (const { path } of listed.files) cpSync(join(root, path), join(stage, path));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const development of ['scripts', 'devDependencies', 'overrides', 'allowScripts']) delete manifest[development];
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const report = npm(stage, ['pack', '--json', '--ignore-scripts', '--pack-destination', destination]);
  console.log(json ? report.trim() : join(destination, JSON.parse(report)[0].filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}

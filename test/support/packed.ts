/**
 * cpmx as an app gets it: `npm run tarball` of this checkout (scripts/pack.mjs), installed into
 * a fresh project in a temporary directory, as a user installs a tarball.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../helpers.js';

export interface Installed {
  /** The consumer project, with node_modules/cpmx installed from the tarball. */
  project: string;
  /** The files the tarball holds. */
  files: string[];
  /** What `npm install` of the tarball printed (stdout and stderr). */
  installOutput: string;
}

export interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** The files it holds. */
  files: string[];
}

/** Packs this checkout into `dir` as `npm run tarball` does (scripts/pack.mjs, from a copy). */
export function packTarball(dir: string): Packed {
  const artifact = join(root, 'data', 'cpmx.msgpack');
  if (!existsSync(artifact)) throw new Error(`${artifact} is missing: npm install (or npm ci) builds it from the catalog`);
  // As `npm run tarball` makes it: from a copy, so packing never touches the checkout other test files use.
  const packed = JSON.parse(execFileSync(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--json', '--pack-destination', dir], { encoding: 'utf8' })) as {
    filename: string;
    files: { path: string }[];
  }[];
  return { tarball: join(dir, packed[0]!.filename), files: packed[0]!.files.map((file) => file.path) };
}

/** Packs this checkout into `dir` and installs the tarball into `dir/<name>` (a new ES module project). */
export function packAndInstall(dir: string, name = 'consumer'): Installed {
  const { tarball, files } = packTarball(dir);
  const project = join(dir, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }));
  const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, encoding: 'utf8' });
  const installOutput = `${installed.stdout}${installed.stderr}`;
  if (installed.status !== 0) throw new Error(`npm install of the tarball failed (${installed.status}): ${installOutput}`);
  return { project, files, installOutput };
}

/**
 * cpmx as an app gets it: `npm pack` of this checkout, installed into a fresh project in a
 * temporary directory, as a user installs a tarball.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../helpers.js';

export const npm = (args: string[], cwd: string): string => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface Installed {
  /** The consumer project, with node_modules/cpmx installed from the tarball. */
  project: string;
  /** The files the tarball holds. */
  files: string[];
}

/** Packs this checkout into `dir` and installs the tarball into `dir/<name>` (a new ES module project). */
export function packAndInstall(dir: string, name = 'consumer'): Installed {
  const artifact = join(root, 'data', 'cpmx.msgpack');
  if (!existsSync(artifact)) throw new Error(`${artifact} is missing: npm install (or npm ci) builds it from the catalog`);
  // Scripts are skipped so packing does not recompile dist/ under the feet of other test files.
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root)) as { filename: string; files: { path: string }[] }[];
  const project = join(dir, name);
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', private: true }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed[0]!.filename)], project);
  return { project, files: packed[0]!.files.map((file) => file.path) };
}

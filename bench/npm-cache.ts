/**
 * Packages the tests install on first need rather than with `npm install` (Node binaries of
 * other versions, other TypeScripts: several versions of one package): each into a folder of its own under
 * node_modules/.cache/, so a fresh checkout (and CI) downloads it once. Installed into a folder
 * of this process's and renamed into place whole, so test files running at once never see a
 * half-installed package: the loser of a race drops its copy and takes the winner's.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/package-root.js';

const run = promisify(execFile);

/** The cache's folder for `key`. */
export function cacheFolder(key: string): string {
  return join(packageRoot, 'node_modules', '.cache', key);
}

/**
 * Installs `specs` (npm specs, e.g. `typescript@5.9.3`) into node_modules/.cache/<key>, once
 * (`key` names the versions: a complete folder is never replaced); resolves with that folder
 * (its node_modules holds them). Install scripts are not run.
 */
export async function installCached(key: string, specs: string[]): Promise<string> {
  const folder = cacheFolder(key);
  const done = join(folder, 'installed.json');
  if (existsSync(done)) return folder;
  const work = `${folder}.part-${process.pid}-${Date.now()}`;
  mkdirSync(work, { recursive: true });
  try {
    writeFileSync(join(work, 'package.json'), '{ "private": true }\n');
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', ...specs], { cwd: work });
    writeFileSync(join(work, 'installed.json'), `${JSON.stringify(specs)}\n`);
    // A complete folder is never replaced (a test may be using it): another process may have
    // renamed its copy into place meanwhile. Anything else there is a stale, incomplete one.
    if (!existsSync(done)) {
      rmSync(folder, { recursive: true, force: true });
      try {
        renameSync(work, folder);
      } catch (error) {
        if (!existsSync(done)) throw error;
      }
    }
  } catch (error) {
    throw new Error(`could not install ${specs.join(' ')} into ${folder} (npm install): ${(error as Error).message}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return folder;
}

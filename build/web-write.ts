/**
 * Puts a web tree on disk as a whole: written into a new folder beside the target, then
 * swapped in by renames, so a server never serves half a tree and a failed export leaves the
 * old one as it was. Only a folder that is empty or holds a previous export (its manifest and
 * files named as an export names them, nothing else) is replaced: anything of the user's in
 * it stops the export before a byte is written.
 */
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MANIFEST, TREE_FILE, WEB_FORMAT } from '../src/web/format.js';
import type { WebTree } from './web-tree.js';

/** The export cannot go where it was asked to: the message says why; nothing was written. */
export class ExportTargetError extends Error {}

/** Sibling folders of a run, by process id: `.DIR.cpmx-new-PID` (being written) and `.DIR.cpmx-old-PID` (being replaced). */
const SIBLING = /^\.(.+)\.cpmx-(new|old)-(\d+)$/;

/** Refuses a target that is not a folder this exporter may replace; true when it exists. */
export function checkTarget(target: string): boolean {
  const dir = resolve(target);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new ExportTargetError(`${dir} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (stat.isSymbolicLink()) throw new ExportTargetError(`${dir} is a symbolic link: give the folder it points to, or a new folder`);
  if (!stat.isDirectory()) throw new ExportTargetError(`${dir} exists and is not a folder: give a new folder, or one a previous export wrote`);
  const entries = readdirSync(dir);
  if (!entries.length) return true;
  const foreign = entries.filter((name) => name !== MANIFEST && !TREE_FILE.test(name));
  let manifest: { format?: unknown } | undefined;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'));
  } catch {}
  if (manifest?.format !== WEB_FORMAT || foreign.length) {
    const what = foreign.length ? `it holds ${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ` and ${foreign.length - 3} more` : ''}` : `it has no ${MANIFEST} of a cpmx web tree`;
    throw new ExportTargetError(`${dir} is not a previous export (${what}); nothing was written: give a new or empty folder, or remove what is not the export's`);
  }
  return true;
}

/** Removes the folders that runs killed before their end left beside the target. */
function removeLeftovers(dir: string): void {
  const parent = dirname(dir);
  for (const name of readdirSync(parent)) {
    const match = SIBLING.exec(name);
    if (!match || match[1] !== basename(dir)) continue;
    const pid = Number(match[3]);
    try {
      if (pid !== process.pid) process.kill(pid, 0);
      continue; // a live run's (or this one's)
    } catch {}
    rmSync(join(parent, name), { recursive: true, force: true });
  }
}

export interface WrittenTree {
  dir: string;
  /** Names in the folder, direct names included. */
  files: number;
  /** Of them, direct names (links to hashed files, so no bytes of their own). */
  links: number;
  bytes: number;
}

/** Writes `tree` as folder `dir` (replacing a previous export there). */
export function writeWebTree(target: string, tree: WebTree): WrittenTree {
  const dir = resolve(target);
  const exists = checkTarget(dir);
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  removeLeftovers(dir);
  const fresh = join(parent, `.${basename(dir)}.cpmx-new-${process.pid}`);
  const old = join(parent, `.${basename(dir)}.cpmx-old-${process.pid}`);
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { mode: 0o755 });
  let bytes = 0;
  try {
    // The manifest last: a reader of the new folder (none before the swap) would find files before the manifest naming them.
    for (const [name, content] of tree.files) {
      if (name === MANIFEST) continue;
      writeFileSync(join(fresh, name), content, { mode: 0o644 });
      bytes += content.length;
    }
    // Direct names are the same bytes as their hashed files: hard links, or copies where the file system has none.
    for (const [name, target] of tree.links) {
      try {
        linkSync(join(fresh, target), join(fresh, name));
      } catch {
        copyFileSync(join(fresh, target), join(fresh, name));
      }
    }
    const manifest = tree.files.get(MANIFEST)!;
    writeFileSync(join(fresh, MANIFEST), manifest, { mode: 0o644 });
    bytes += manifest.length;
    if (exists) renameSync(dir, old);
    try {
      renameSync(fresh, dir);
    } catch (error) {
      if (exists && !existsSync(dir)) renameSync(old, dir);
      throw error;
    }
  } catch (error) {
    rmSync(fresh, { recursive: true, force: true });
    throw error;
  }
  if (exists) rmSync(old, { recursive: true, force: true });
  return { dir, files: tree.files.size + tree.links.size, links: tree.links.size, bytes };
}

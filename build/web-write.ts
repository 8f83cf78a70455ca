/**
 * Puts a web tree on disk as a whole: written into a new folder beside the target, then
 * swapped in by renames, so a server never serves half a tree and a failed export leaves the
 * old one as it was. Only a folder that is empty or holds a previous export (build/web-folder.ts
 * says how its files are told from anything else: by what they are, not by their names) is
 * replaced: anything of the user's in it stops the export before a byte is written, and only
 * the export's own files are ever deleted.
 *
 * Runs beside each other into one folder: each writes its own sibling folder; the first to
 * swap wins, a run that finds the folder taken or replaced under it stops with
 * `ExportRaceError` (its own folder removed, the winner's tree untouched).
 */
import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MANIFEST } from '../src/web/format.js';
import { processAlive } from '../src/process-alive.js';
import { FolderChangedError, type FolderContents, examineFolder, listed, removeTreeFolder } from './web-folder.js';
import type { WebTree } from './web-tree.js';

/** The export cannot go where it was asked to: the message says why; nothing was written. */
export class ExportTargetError extends Error {}

/** Another export into the same folder swapped its tree in first (or was replacing it): this one wrote nothing; run it again to replace that tree. */
export class ExportRaceError extends ExportTargetError {}

/** Sibling folders of a run, by process id (and a count within it): `.DIR.cpmx-new-PID-N` (being written) and `.DIR.cpmx-old-PID-N` (being replaced). */
const SIBLING = /^\.(.+)\.cpmx-(new|old)-(\d+)(?:-\d+)?$/;
let runs = 0;

function race(dir: string, what: string): ExportRaceError {
  return new ExportRaceError(`${dir} ${what} by another export running at the same time; this one wrote nothing (its tree stands): run it again to replace that tree`);
}

/**
 * Refuses a target that is not a folder this exporter may replace; returns what the folder
 * holds (all of it the export's), or undefined when it does not exist.
 */
export function checkTarget(target: string): FolderContents | undefined {
  const dir = resolve(target);
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ExportTargetError(`${dir} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (stat.isSymbolicLink()) throw new ExportTargetError(`${dir} is a symbolic link: give the folder it points to, or a new folder`);
  if (!stat.isDirectory()) throw new ExportTargetError(`${dir} exists and is not a folder: give a new folder, or one a previous export wrote`);
  let contents: FolderContents;
  try {
    contents = examineFolder(dir);
  } catch (error) {
    if (error instanceof FolderChangedError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw race(dir, 'was being replaced');
    throw new ExportTargetError(`${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!contents.tree.length && !contents.foreign.length) return contents;
  if (contents.foreign.length || !contents.manifest) {
    const what = contents.foreign.length ? `it holds ${listed(contents.foreign)}` : `it has no ${MANIFEST} of a cpmx web tree`;
    throw new ExportTargetError(`${dir} is not a previous export (${what}); nothing was written: give a new or empty folder, or remove what is not the export's`);
  }
  return contents;
}

/** Removes what runs killed before their end left beside the target: their tree files only, never anything else. */
function removeLeftovers(dir: string): string[] {
  const parent = dirname(dir);
  const kept: string[] = [];
  for (const name of readdirSync(parent)) {
    const match = SIBLING.exec(name);
    if (!match || match[1] !== basename(dir)) continue;
    const pid = Number(match[3]);
    if (pid === process.pid || processAlive(pid)) continue; // a live run's (or this one's)
    const path = join(parent, name);
    try {
      if (!lstatSync(path).isDirectory()) continue;
      if (removeTreeFolder(path).length) kept.push(path);
    } catch {
      // gone meanwhile, or unreadable: not ours to force
    }
  }
  return kept;
}

export interface WrittenTree {
  dir: string;
  /** Names in the folder, direct names included. */
  files: number;
  /** Of them, direct names (links to hashed files, so no bytes of their own). */
  links: number;
  bytes: number;
  /** Things for the user to know: folders left beside DIR because they held something not an export's. */
  notes: string[];
}

/** A tree written beside its target, not yet swapped in. */
export interface StagedTree {
  /** Swaps the tree in (replacing a previous export); ExportRaceError when another run got there first. */
  swap(): WrittenTree;
  /** Gives up: the staged folder is removed. */
  discard(): void;
}

/**
 * Writes `tree` into a new folder beside `target`, refusing a target that is not an export's
 * first (a function for the tree is called only once the target is known to be fine).
 */
export function stageWebTree(target: string, make: WebTree | (() => WebTree)): StagedTree {
  const dir = resolve(target);
  checkTarget(dir);
  const tree = typeof make === 'function' ? make() : make;
  // What DIR was when the run began: another run's tree found there at the swap is a race lost, not a previous export.
  const before = identity(dir);
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const notes = removeLeftovers(dir).map((path) => `${path} was left by an export that did not finish and holds something not an export's: kept`);
  const run = `${process.pid}-${++runs}`;
  const fresh = join(parent, `.${basename(dir)}.cpmx-new-${run}`);
  const old = join(parent, `.${basename(dir)}.cpmx-old-${run}`);
  // Exclusive: a folder of this name (a killed run's whose pid came back) is not written into.
  if (lstatSync(fresh, { throwIfNoEntry: false })) removeTreeFolder(fresh);
  mkdirSync(fresh, { mode: 0o755 });
  let bytes = 0;
  const discard = () => rmSync(fresh, { recursive: true, force: true });
  try {
    // The manifest last: a reader of the new folder (none before the swap) would find files before the manifest naming them.
    for (const [name, content] of tree.files) {
      if (name === MANIFEST) continue;
      writeFileSync(join(fresh, name), content, { mode: 0o644, flag: 'wx' });
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
    writeFileSync(join(fresh, MANIFEST), manifest, { mode: 0o644, flag: 'wx' });
    bytes += manifest.length;
  } catch (error) {
    discard();
    throw error;
  }
  const swap = (): WrittenTree => {
    let previous: FolderContents | undefined;
    try {
      // Examined again just before the swap: the folder may have changed while the tree was made.
      previous = checkTarget(dir);
      const now = identity(dir);
      if (now !== undefined && now !== before) throw race(dir, 'was written');
      if (previous) {
        try {
          renameSync(dir, old);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw race(dir, 'was being replaced');
          throw error;
        }
      }
      try {
        renameSync(fresh, dir);
      } catch (error) {
        if (previous) {
          try {
            renameSync(old, dir);
          } catch {
            // another run's tree took the name meanwhile: the previous tree stays beside it, for a later run to remove
          }
        }
        const code = (error as NodeJS.ErrnoException).code;
        // Another run's tree took the name between the check and the rename.
        if (code === 'ENOTEMPTY' || code === 'EEXIST') throw race(dir, 'was written');
        throw error;
      }
    } catch (error) {
      discard();
      throw error;
    }
    if (previous) {
      // The files examined, by identity; anything else (added since, or another run's) examined anew before it is left.
      let left = removeTreeFolder(old, previous);
      if (left.length) left = removeTreeFolder(old);
      if (left.length) notes.push(`${dir} had ${listed(left)} added while the export ran: the previous tree's folder, with them, is kept as ${old}`);
    }
    return { dir, files: tree.files.size + tree.links.size, links: tree.links.size, bytes, notes };
  };
  return { swap, discard };
}

/** A folder's identity (device and inode), or undefined when there is none. */
function identity(path: string): string | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : undefined;
}

/** Writes `tree` as folder `dir` (replacing a previous export there). */
export function writeWebTree(target: string, tree: WebTree | (() => WebTree)): WrittenTree {
  return stageWebTree(target, tree).swap();
}

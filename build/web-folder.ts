/**
 * What an export's folder holds, told by what each entry is rather than by its name: the
 * exporter deletes only what it can prove an export wrote, so a user's folder, symlink or
 * file that merely looks like a tree file is never removed.
 *
 * An entry is the export's when it is a regular file (never a folder, never a symlink, which
 * is not followed) and
 * - `manifest.json`: JSON whose `format` is a cpmx web tree's;
 * - a hashed name (`c098.0badf00d.json`): its bytes' CRC-32 is the hash in its name;
 * - a direct name (`c098.json`): its bytes' CRC-32 names a hashed file of the same part beside it.
 */
import { lstatSync, readFileSync, readdirSync, rmdirSync, type Stats, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { DIRECT_PART, MANIFEST, WEB_FORMAT, hashText, treeFileName } from '../src/web/format.js';
import { crc32 } from './crc32.js';

/** A tree file is a few MB at most (the biggest shard of the real catalog is far smaller): anything bigger is not one. */
const MAX_TREE_FILE = 64 * 1024 * 1024;
/** `part.hash.json`. */
const HASHED = /^([a-z][0-9a-z-]*)\.([0-9a-f]{8})\.json$/;
/** `part.json` for a part with a direct name. */
const DIRECT = /^([a-z][0-9a-z-]*)\.json$/;

/** One entry of the folder that an export wrote, with its identity when examined (so a file swapped in later is not deleted). */
interface TreeEntry {
  name: string;
  dev: number;
  ino: number;
}

export interface FolderContents {
  /** The export's files. */
  tree: TreeEntry[];
  /** Everything else, each with what it is: `backup.0badf00d.json (a folder)`. */
  foreign: string[];
  /** Whether a manifest of a cpmx web tree is among `tree`. */
  manifest: boolean;
}

/** The folder changed while it was examined (an entry vanished): another run is at work on it. */
export class FolderChangedError extends Error {}

function statOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What a non-regular entry is, in words. */
function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Sorts each entry of `dir` into the export's and the rest (see the header). */
export function examineFolder(dir: string): FolderContents {
  const names = readdirSync(dir);
  const present = new Set(names);
  const tree: TreeEntry[] = [];
  const foreign: string[] = [];
  let manifest = false;
  for (const name of names) {
    const path = join(dir, name);
    const stat = statOf(path);
    if (!stat) throw new FolderChangedError(`${name} vanished from ${dir} while it was examined`);
    if (!stat.isFile()) {
      foreign.push(`${name} (${kindOf(stat)})`);
      continue;
    }
    const hashed = HASHED.exec(name);
    const direct = hashed ? null : DIRECT.exec(name);
    const shaped = name === MANIFEST || hashed !== null || (direct !== null && DIRECT_PART.test(direct[1]!));
    if (!shaped) {
      foreign.push(name);
      continue;
    }
    if (stat.size > MAX_TREE_FILE) {
      foreign.push(`${name} (too big for a tree file)`);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FolderChangedError(`${name} vanished from ${dir} while it was examined`);
      throw error;
    }
    let ours: boolean;
    if (name === MANIFEST) {
      ours = manifestFormat(bytes) === WEB_FORMAT;
      manifest ||= ours;
    } else if (hashed) ours = hashText(crc32(bytes)) === hashed[2];
    else ours = present.has(treeFileName(direct![1]!, hashText(crc32(bytes))));
    if (ours) tree.push({ name, dev: stat.dev, ino: stat.ino });
    else foreign.push(`${name} (${name === MANIFEST ? 'not a cpmx web manifest' : 'its bytes are not a tree file’s'})`);
  }
  return { tree, foreign, manifest };
}

function manifestFormat(bytes: Buffer): unknown {
  try {
    return (JSON.parse(bytes.toString('utf8')) as { format?: unknown } | null)?.format;
  } catch {
    return undefined;
  }
}

/** A short list of entries for a message: the first three and how many more. */
export function listed(entries: readonly string[]): string {
  return `${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ` and ${entries.length - 3} more` : ''}`;
}

/**
 * Removes the export's files from `dir` (each still the file examined: same device and
 * inode), then the folder if that left it empty. Returns what was left, by name: nothing
 * unless something not the export's is in it.
 */
export function removeTreeFolder(dir: string, contents: FolderContents = examineFolder(dir)): string[] {
  for (const entry of contents.tree) {
    const path = join(dir, entry.name);
    const now = statOf(path);
    if (now?.isFile() && now.dev === entry.dev && now.ino === entry.ino) unlinkSync(path);
  }
  try {
    rmdirSync(dir);
    return [];
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    return readdirSync(dir);
  }
}

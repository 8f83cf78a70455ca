/**
 * The artifact file as an adapter's catalog source: read and decoded on first need, once per
 * path for the whole process. A load that fails is tried again on the next need, so a server
 * started before `cpmx build` picks up the artifact once it is written.
 */
import { ArtifactError, REBUILD, decodeCatalog, type Catalog } from '../core/catalog.js';
import { packageArtifactPath } from '../default-artifact.js';
import type { CatalogSource } from './bytes-source.js';
import type { Fill } from '../core/pages.js';
import { nodeFs, nodePath } from '../node-builtins.js';
import { geoForCatalog } from './geodata.js';

export type { CatalogSource } from './bytes-source.js';

const loaded = new Map<string, Catalog>();

/**
 * Why the package's own artifact is missing: in an installed package (its package.json beside
 * data/), the install made none; elsewhere cpmx's code is inside an app's bundle, and the
 * artifact was not copied where that bundle looks.
 */
function ownArtifactMissing(path: string): string {
  const { dirname, join } = nodePath();
  if (nodeFs().existsSync(join(dirname(path), '..', 'package.json'))) return NO_DATA_YET;
  return 'no artifact here: cpmx runs from a bundle, and data/cpmx.msgpack was not copied there; give the artifact to createClient as dataPath (node_modules/cpmx/data/cpmx.msgpack copied beside the bundle) or as data (its bytes), or set CPMX_DATA to its path';
}

/**
 * The package's own artifact is missing where an install made none: from git, or from a
 * checkout with no catalog (the catalog's terms forbid shipping its data). One command gets it.
 */
export const NO_DATA_YET =
  'cpmx was installed without data (an install from git, or with no catalog to build from, makes none): run `npx cpmx build --download` to download the official catalog and build it here; `npx cpmx build --download --out FILE` with CPMX_DATA=FILE keeps it outside node_modules';

/** The largest artifact read: a hundred times the official catalog's (2 MB), and a bound on memory. */
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

/** What is read of the file at open: its head, in all but a forged file (the rest is read as its pages are needed). */
const FIRST_READ = 16 * 1024;
/** A lazily read file is read in aligned blocks of this size: one read for the few pages of a lookup that lie together. */
const READ_BLOCK = 16 * 1024;

/** Closes a lazily read file's descriptor when its catalog is collected before every page was read. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    nodeFs().closeSync(fd);
  } catch {
    // Already closed: nothing to release.
  }
});

/**
 * Opens the artifact file: a regular file only, of at most MAX_ARTIFACT_BYTES. Opened without
 * blocking, so a FIFO is refused at once rather than waited on, and a device (`/dev/zero`) is
 * never read without end. Returns the whole file's buffer with its first bytes read, and the
 * `fill` that reads the rest where it is needed (pages.ts): the file stays open until every
 * block has been read, so a file replaced meanwhile (a rebuild renames a new one over it) is
 * never mixed with the one opened.
 */
function openArtifactFile(path: string): { file: Uint8Array; fill: Fill; release: (owner: object | undefined) => void } {
  const { closeSync, constants, fstatSync, openSync, readSync } = nodeFs();
  let fd: number | undefined = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let opened = false;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      const kind = stats.isFIFO() ? 'a FIFO' : stats.isCharacterDevice() ? 'a device' : stats.isDirectory() ? 'a directory' : 'not a regular file';
      throw new ArtifactError(path, `is ${kind}, not an artifact file; give the path of the artifact (a regular file)`);
    }
    if (stats.size > MAX_ARTIFACT_BYTES) throw new ArtifactError(path, `is ${stats.size} bytes, more than an artifact can be (${MAX_ARTIFACT_BYTES}); ${REBUILD}`);
    // Zero-filled and untouched until read: memory the system gives page by page as it is written.
    const file = new Uint8Array(stats.size);
    const blocks = Math.ceil(stats.size / READ_BLOCK);
    const read = new Uint8Array(blocks);
    let unread = blocks;
    const readRange = (from: number, to: number) => {
      for (let at = from; at < to; ) {
        const n = readSync(fd!, file, at, to - at, at);
        if (n <= 0) throw new ArtifactError(path, `is damaged (it is shorter than when it was opened: ${at} of ${file.length} bytes); ${REBUILD}`);
        at += n;
      }
    };
    const fill: Fill = (from, to) => {
      if (unread === 0) return;
      let block = Math.max(0, Math.floor(from / READ_BLOCK));
      const last = Math.min(blocks, Math.ceil(to / READ_BLOCK));
      while (block < last) {
        if (read[block] === 1) {
          block++;
          continue;
        }
        let end = block + 1;
        while (end < last && read[end] === 0) end++;
        readRange(block * READ_BLOCK, Math.min(file.length, end * READ_BLOCK));
        read.fill(1, block, end);
        unread -= end - block;
        block = end;
      }
      if (unread === 0 && fd !== undefined) {
        closer.unregister(read);
        closeSync(fd);
        fd = undefined;
      }
    };
    fill(0, Math.min(file.length, FIRST_READ));
    opened = true;
    /** The descriptor closed with `owner` (the catalog), or now when there is none (the file was refused). */
    const release = (owner: object | undefined) => {
      if (fd === undefined) return;
      if (owner) closer.register(owner, fd, read);
      else {
        closeSync(fd);
        fd = undefined;
      }
    };
    return { file, fill, release };
  } finally {
    if (!opened && fd !== undefined) closeSync(fd);
  }
}

/**
 * Opens the artifact at `path`: its head read and checked now, its pages where they are first
 * needed; with `whole`, every page now (a server refusing a damaged file before it swaps it in).
 */
export function loadCatalog(path: string, { whole = false } = {}): Catalog {
  let opened: ReturnType<typeof openArtifactFile>;
  try {
    opened = openArtifactFile(path);
  } catch (error) {
    if (error instanceof ArtifactError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && path === packageArtifactPath()) throw new ArtifactError(path, ownArtifactMissing(path));
    throw new ArtifactError(path, code === 'ENOENT' ? `no artifact here; ${REBUILD}` : `cannot be read (${code}); ${REBUILD}`);
  }
  // Released with the catalog, or closed now when the file is refused (checked whole, it is read and closed already).
  let catalog: Catalog | undefined;
  try {
    const decoded = decodeCatalog(opened.file, path, opened.fill);
    if (whole) decoded.checkWhole();
    catalog = decoded;
    return catalog;
  } finally {
    opened.release(catalog);
  }
}

/** The process-wide source of the artifact at `path` (an absolute path). */
export function catalogSource(path: string): CatalogSource {
  return {
    path,
    get() {
      let catalog = loaded.get(path);
      if (!catalog) {
        catalog = loadCatalog(path);
        loaded.set(path, catalog);
      }
      return catalog;
    },
    loaded: () => loaded.get(path),
    geo: geoForCatalog,
  };
}

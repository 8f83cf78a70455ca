/**
 * When a serving process swaps its catalog: on SIGHUP (forwarded by a cluster's primary to each
 * worker), when the file at the artifact's path is replaced, and after a scheduled refresh. Each
 * swap is logged with its outcome; a refused file is logged with why.
 *
 * The file is followed by its path, however it is replaced: renamed over, rewritten, its folder
 * replaced (`rm -rf data; mv data.new data`), a symlink at the path or anywhere above it swapped
 * (the Kubernetes ConfigMap layout: the file a symlink through `..data`, updated by swapping
 * `..data`), or the file a symlink points to replaced. Two ways, one rule: the identity of
 * what the path resolves to now (device, inode, size, times: `fileIdentity`) against the one
 * last read. Folder events (a watch on the folder, re-armed when the folder is replaced) make
 * it quick; a look every POLL_MS makes it sure, whatever the events miss. Events are gathered
 * for a short quiet spell, so a file being written is read once it is whole; a file read while
 * still half-written is refused, and the next change reads it again.
 *
 * What cannot be followed is said, in the log and in /health (`watch`): a folder that cannot
 * be watched (polling alone goes on), a path that leads to no file (the catalog served is kept
 * until one is there).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import { buildIdOf } from '../core/catalog.js';
import type { ReloadOutcome, WatchStatus } from '../http/catalog-status.js';
import { fileIdentity, type ServedCatalog } from './served-catalog.js';

/** How long the folder must be quiet after a change to the file before it is read. */
const QUIET_MS = 150;
/** How often the path is looked at, events or not: the longest a replacement waits to be seen. */
export const POLL_MS = 1000;

/** Which folder is at a path (device and inode: not its times, which change with every file written in it); undefined when none is. */
function folderIdentity(path: string): string | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats?.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
}

/** A line for the log saying what a reload did. */
export function reloadLine(outcome: ReloadOutcome, catalog: ServedCatalog): string {
  const served = catalog.loaded();
  const dated = served?.header.source.date ? `, catalog dated ${served.header.source.date.slice(0, 10)}` : '';
  switch (outcome.result) {
    case 'swapped':
      return `catalog reloaded (${outcome.trigger}): now serving build ${outcome.buildId}${dated}, ${served?.codeCount ?? 0} codes, from ${catalog.path}`;
    case 'unchanged':
      return `catalog reload (${outcome.trigger}): ${catalog.path} is the build already served (${outcome.buildId})`;
    case 'refused':
      return `catalog reload (${outcome.trigger}) refused: ${outcome.reason}; still serving ${served ? `build ${buildIdOf(served)}` : 'test mode only'}`;
  }
}

export interface Reloads {
  /** Reloads now, logging the outcome. */
  reload(trigger: string): ReloadOutcome;
  /** Stops watching. */
  close(): void;
}

/**
 * Reloads `catalog` when asked, and, with `watchFile`, when the file at its path changes (see
 * the header); `say` logs a line. What cannot be followed is logged when it starts and when it
 * ends, and recorded on the catalog for /health.
 */
export function startReloads(catalog: ServedCatalog, say: (line: string) => void, watchFile: boolean): Reloads {
  const reload = (trigger: string) => {
    const outcome = catalog.reload(trigger);
    say(reloadLine(outcome, catalog));
    return outcome;
  };
  if (!watchFile) return { reload, close() {} };

  const folder = dirname(catalog.path);
  let watcher: FSWatcher | undefined;
  /** The identity of the folder being watched, to re-arm the watch when another folder takes its path. */
  let watched: string | undefined;
  let quiet: NodeJS.Timeout | undefined;
  const status: WatchStatus = { events: false, pollMs: POLL_MS, problem: null };
  catalog.recordWatch(status);
  const problem = (text: string | null) => {
    if (text === status.problem) return;
    say(text ?? `${catalog.path} is followed again${status.events ? '' : ' (by polling)'}`);
    status.problem = text;
  };
  const kept = () => (catalog.loaded() ? 'the catalog served is kept' : 'test mode only is served');
  const settled = () => {
    quiet = undefined;
    if (catalog.changed()) reload('file');
  };
  const soon = () => {
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(settled, QUIET_MS);
    quiet.unref();
  };
  const unwatch = () => {
    watcher?.close();
    watcher = undefined;
    watched = undefined;
    status.events = false;
  };
  /** Watches the folder now at the path (again, when it was replaced); false when it cannot be. */
  const arm = (): string | null => {
    const identity = folderIdentity(folder);
    if (watcher && identity === watched) return null;
    unwatch();
    if (identity === undefined) return `${folder} cannot be found: ${kept()}, and ${catalog.path} is read when it is there`;
    try {
      // Any event in the folder: a swapped `..data` symlink is named `..data`, not the file.
      watcher = watch(folder, { persistent: false }, soon);
      watcher.on('error', (error) => {
        unwatch();
        problem(`cannot watch ${folder} any more (${(error as NodeJS.ErrnoException).code ?? error.message}): ${catalog.path} is followed by polling every ${POLL_MS / 1000} s`);
      });
      watched = identity;
      status.events = true;
      return null;
    } catch (error) {
      return `cannot watch ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${catalog.path} is followed by polling every ${POLL_MS / 1000} s`;
    }
  };
  const look = () => {
    const trouble = arm();
    const missing = fileIdentity(catalog.path) === undefined ? `${catalog.path} leads to no file now: ${kept()} until one is there` : null;
    problem(trouble ?? missing);
    if (catalog.changed()) soon();
  };
  look();
  const poll = setInterval(look, POLL_MS);
  poll.unref();
  return {
    reload,
    close() {
      clearInterval(poll);
      if (quiet) clearTimeout(quiet);
      unwatch();
    },
  };
}

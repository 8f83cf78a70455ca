/**
 * When a serving process swaps its catalog: on SIGHUP (forwarded by a cluster's primary to each
 * worker), when the file at the artifact's path is replaced (renamed over, rewritten), and after
 * a scheduled refresh. Each swap is logged with its outcome; a refused file is logged with why.
 *
 * The file is watched through its folder (a watch on the file itself would follow the old file
 * once another is renamed over it). Events are gathered for a short quiet spell, so a file being
 * written is read once it is whole; a file read while still half-written is refused, and the
 * write's next event reads it again. When the path is a symlink, replacing the link is seen;
 * a change to the file it points to is not (send SIGHUP).
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { buildIdOf } from '../core/catalog.js';
import type { ReloadOutcome } from '../http/catalog-status.js';
import type { ServedCatalog } from './served-catalog.js';

/** How long the folder must be quiet after a change to the file before it is read. */
const QUIET_MS = 150;

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
 * Reloads `catalog` when asked, and, with `watchFile`, when its file changes; `say` logs a line.
 * A folder that cannot be watched is logged once: SIGHUP still reloads.
 */
export function startReloads(catalog: ServedCatalog, say: (line: string) => void, watchFile: boolean): Reloads {
  const reload = (trigger: string) => {
    const outcome = catalog.reload(trigger);
    say(reloadLine(outcome, catalog));
    return outcome;
  };
  let watcher: FSWatcher | undefined;
  let quiet: NodeJS.Timeout | undefined;
  if (watchFile) {
    const name = basename(catalog.path);
    const settled = () => {
      quiet = undefined;
      if (catalog.changed()) reload('file');
    };
    try {
      watcher = watch(dirname(catalog.path), { persistent: false }, (_event, file) => {
        if (file !== null && file !== name) return;
        if (quiet) clearTimeout(quiet);
        quiet = setTimeout(settled, QUIET_MS);
        quiet.unref();
      });
      watcher.on('error', (error) => {
        say(`cannot watch ${dirname(catalog.path)} any more (${(error as NodeJS.ErrnoException).code ?? error.message}); send SIGHUP to reload the catalog`);
        watcher?.close();
      });
    } catch (error) {
      say(`cannot watch ${dirname(catalog.path)} (${(error as NodeJS.ErrnoException).code ?? String(error)}); send SIGHUP to reload the catalog`);
    }
  }
  return {
    reload,
    close() {
      if (quiet) clearTimeout(quiet);
      watcher?.close();
    },
  };
}

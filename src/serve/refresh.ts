/**
 * `cpmx serve --refresh-every`: every so often, the official catalog is downloaded (as `cpmx
 * download` does), compiled (as `cpmx build` does), checked against the catalog served, written
 * over the served artifact by the one output rule (src/output-file.ts: a temporary file renamed
 * over it), and swapped in. The served artifact's corrections are re-applied and its history
 * carried forward (build/carry-forward.ts: a correction that no longer applies is dropped and
 * said in the log, /health, /metrics and the new artifact's header). The check refuses a
 * catalog that lacks more than `maxLoss` of the codes served (a truncated or partial download);
 * Correos publishing the same file again is `unchanged` and writes nothing. A refresh never goes
 * back in time: a catalog dated before the one served (its own date, as `cpmx status` gives it)
 * is refused unless `allowOlder` (`--allow-older`), and taken with it is said; one dated ahead
 * of the clock is refused (taken, every later catalog would look older). Any failure keeps
 * the catalog served and says why.
 *
 * The downloader and the compiler are loaded at the first refresh: a server without
 * --refresh-every never reads them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIdOf, decodeCatalog, type Catalog } from '../core/catalog.js';
import { OutputError, planOutput } from '../output-file.js';
import type { Compiled } from '../../build/build.js';
import type { DownloadResult } from '../../build/download/index.js';
import type { DroppedCorrection } from '../core/catalog-history.js';
import type { RefreshOutcome } from '../http/catalog-status.js';

/** The share of served codes a refreshed catalog may lack by default: a year of real changes is far below it, a cut download far above. */
export const DEFAULT_MAX_LOSS = 0.01;

export interface RefreshOptions {
  /** The artifact served, which a good refresh replaces. */
  path: string;
  /** The largest share (0 to 1) of served codes the new catalog may lack. */
  maxLoss: number;
  /** The export page; default the official one. */
  pageUrl?: string | undefined;
  /** The catalog served now, to compare with; undefined when none is. */
  serving: () => Catalog | undefined;
  /** Logs a line. */
  say: (line: string) => void;
  /** `--allow-older`: take a catalog dated before the one served (said in the log and /health). */
  allowOlder?: boolean | undefined;
}

/** How far ahead of this machine's clock a catalog's date may be (time zones, a clock a little off). */
const AHEAD_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * Whether a catalog's date is ahead of the clock by more than a day or two: taken, it would
 * make every true catalog after it look older, and refreshes stop. Refused, `--allow-older`
 * or not.
 */
export function datedAhead(fresh: string | null | undefined, now = Date.now()): boolean {
  return !!fresh && Date.parse(fresh) > now + AHEAD_MS;
}

/**
 * Whether a catalog dated `fresh` goes back in time from one dated `served` (the catalogs' own
 * dates): `older` when it is dated before, `undated` when it has no date and the served one
 * has; undefined when it does not.
 */
export function backInTime(served: string | null | undefined, fresh: string | null | undefined): 'older' | 'undated' | undefined {
  if (!served) return undefined;
  if (!fresh) return 'undated';
  return Date.parse(fresh) < Date.parse(served) ? 'older' : undefined;
}

/** Why the artifact at `path` cannot be refreshed in place (not a regular file that may be replaced), or undefined when it can. */
export function refreshTargetProblem(path: string): string | undefined {
  try {
    const plan = planOutput(path, { createDirectories: true });
    if (plan.kind === 'replace') return undefined;
    return `${path} is not a regular file, so a refreshed artifact cannot be renamed over it`;
  } catch (error) {
    if (error instanceof OutputError) return error.message;
    throw error;
  }
}

const percent = (share: number) => `${(share * 100).toFixed(share < 0.01 ? 2 : 1)}%`;

/** One refresh: its outcome (without `nextAt`), and whether a new artifact was written. */
export async function refreshOnce(options: RefreshOptions): Promise<Omit<RefreshOutcome, 'nextAt'>> {
  const at = new Date().toISOString();
  const outcome = (result: RefreshOutcome['result'], reason: string | null, codes: number | null = null, lost: number | null = null, dropped: DroppedCorrection[] | null = null) => ({
    at,
    result,
    reason,
    codes,
    lost,
    droppedCorrections: dropped,
  });
  const { downloadCatalog, DownloadError, OFFICIAL_PAGE_URL } = await import('../../build/download/index.js');
  const { compileArtifact, CatalogError, ArtifactWriteError } = await import('../../build/build.js');
  const { compileSuccessor } = await import('../../build/carry-forward.js');
  const { writeFileAtomic } = await import('../../build/write.js');
  const dir = mkdtempSync(join(tmpdir(), 'cpmx-refresh-'));
  try {
    const zip = join(dir, 'CPdescargatxt.zip');
    let downloaded: DownloadResult;
    try {
      downloaded = await downloadCatalog({
        out: zip,
        pageUrl: options.pageUrl ?? OFFICIAL_PAGE_URL,
        onRetry: ({ attempt, error }) => options.say(`refresh: download attempt ${attempt} failed (${error.reason}); trying again`),
      });
    } catch (error) {
      if (!(error instanceof DownloadError)) throw error;
      const tried = error.attempts > 1 ? ` (after ${error.attempts} attempts)` : '';
      const refused = error.kind === 'bad-catalog' || error.kind === 'not-a-zip';
      return outcome(refused ? 'refused' : 'failed', `download from ${options.pageUrl ?? OFFICIAL_PAGE_URL}: ${error.reason}${tried}`);
    }
    const serving = options.serving();
    if (serving && serving.header.source.sha256 === downloaded.sha256) return outcome('unchanged', null, serving.codeCount, 0, []);
    let compiled: Compiled;
    try {
      // The served artifact's corrections re-applied and its history carried forward (build/carry-forward.ts).
      compiled = serving ? await compileSuccessor([zip], new Date(), { catalog: serving, path: options.path }) : await compileArtifact([zip], new Date());
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      // An error in the download is said without the temporary file's name; one about the served artifact (its history) names it.
      if (error.file.includes(options.path)) return outcome('refused', `the downloaded catalog cannot be built: ${error.message}`);
      return outcome('refused', `the downloaded catalog cannot be built: ${error.reason}${error.line === undefined ? '' : ` (line ${error.line})`}`);
    }
    const { bytes, dropped } = compiled;
    // Read back as the servers will read it: what would not load is never written.
    const fresh = decodeCatalog(bytes, `${options.path} (refreshed)`);
    fresh.checkWhole();
    const lost = serving ? lostCodes(serving, fresh) : 0;
    const [servedDate, freshDate] = [serving?.header.source.date, fresh.header.source.date];
    if (datedAhead(freshDate)) {
      return outcome('refused', `the downloaded catalog is dated ${freshDate}, ahead of this machine's clock: taken, every later catalog would look older; check the clock and the download`, fresh.codeCount, lost, dropped);
    }
    const back = backInTime(servedDate, freshDate);
    const dates = back === 'older' ? `is dated ${freshDate}, before the catalog served (${servedDate})` : `has no date, and the catalog served is dated ${servedDate}`;
    if (back && !options.allowOlder) {
      return outcome('refused', `the downloaded catalog ${dates}: a refresh never goes back in time (--allow-older takes it); still serving build ${buildIdOf(serving!)}`, fresh.codeCount, lost, dropped);
    }
    if (serving && lost / serving.codeCount > options.maxLoss) {
      return outcome(
        'refused',
        `the downloaded catalog lacks ${lost} of the ${serving.codeCount} codes served (${percent(lost / serving.codeCount)}), more than --max-loss ${percent(options.maxLoss)}; still serving build ${buildIdOf(serving)}`,
        fresh.codeCount,
        lost,
        dropped,
      );
    }
    try {
      writeFileAtomic(options.path, bytes, [zip]);
    } catch (error) {
      if (!(error instanceof ArtifactWriteError)) throw error;
      return outcome('failed', error.message, fresh.codeCount, lost, dropped);
    }
    return outcome('swapped', back ? `taken with --allow-older: the downloaded catalog ${dates}` : null, fresh.codeCount, lost, dropped);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many codes of `served` `fresh` lacks. */
function lostCodes(served: Catalog, fresh: Catalog): number {
  let lost = 0;
  for (const code of served.postalCodes()) if (fresh.codeIndex(code) < 0) lost++;
  return lost;
}

/** The corrections a refresh dropped, each with its line in the corrections file and why, for the log. */
function droppedText(dropped: readonly DroppedCorrection[] | null): string {
  if (!dropped?.length) return '';
  const each = dropped.map((row) => `line ${row.line} (${row.action} ${row.cp}): ${row.reason}`);
  return `; ${dropped.length} of the served artifact's corrections no longer apply and were dropped (cpmx status lists them): ${each.join('; ')}`;
}

/** A line for the log saying how a refresh went. */
export function refreshLine(outcome: RefreshOutcome): string {
  const next = outcome.nextAt ? `; next at ${outcome.nextAt}` : '';
  switch (outcome.result) {
    case 'swapped':
      return `refresh: wrote a new catalog (${outcome.codes} codes, ${outcome.lost} of the served ones gone)${outcome.reason ? `, ${outcome.reason}` : ''}${droppedText(outcome.droppedCorrections)}${next}`;
    case 'unchanged':
      return `refresh: Correos publishes the catalog already served${next}`;
    default:
      return `refresh ${outcome.result}: ${outcome.reason}; the catalog served is kept${next}`;
  }
}

/**
 * Refreshes every `everyMs` (the first one an interval after the start; the next an interval
 * after each ends, so two never overlap), handing each outcome to `done`, which swaps.
 */
export function scheduleRefresh(options: RefreshOptions, everyMs: number, done: (outcome: RefreshOutcome) => void): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(run, everyMs);
    timer.unref();
  };
  const run = async () => {
    let result: Omit<RefreshOutcome, 'nextAt'>;
    try {
      result = await refreshOnce(options);
    } catch (error) {
      result = { at: new Date().toISOString(), result: 'failed', reason: `unexpected: ${(error as Error)?.message ?? String(error)}`, codes: null, lost: null, droppedCorrections: null };
    }
    if (stopped) return;
    const outcome = { ...result, nextAt: new Date(Date.now() + everyMs).toISOString() };
    options.say(refreshLine(outcome));
    done(outcome);
    next();
  };
  next();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * Chromium for the benchmark's browser parts: the build package-lock.json pins (the npm one, a
 * devDependency; CPMX_CHROMIUM when set), so that `npm run bench` measures the same browser on
 * every machine, a fresh one with only Node included. The tests take a Chromium on the PATH
 * first (bench/chromium.ts); the benchmark measures that one too, beside the pinned one, when
 * there is one (bench/measure/web.ts). `--no-browser` leaves the browser parts out (the report
 * then says they were not measured).
 */
import type { Browser } from 'playwright-core';
import { NPM_CHROMIUM, launchChromium, pinnedBrowserBinary, systemChromium } from './chromium.js';

/** A browser the benchmark can start, and what to call it in the report. */
export interface BenchBrowser {
  /** Where it comes from: `npm @sparticuz/chromium 147.0.0 (pinned)` or the system binary's path. */
  source: string;
  launch: () => Promise<Browser>;
}

/** The pinned Chromium first, then the machine's own when it has another (not CPMX_CHROMIUM's, which is the pinned one then). */
export function benchBrowsers(enabled = true): BenchBrowser[] {
  if (!enabled) return [];
  const browsers: BenchBrowser[] = [
    {
      source: process.env.CPMX_CHROMIUM ? `CPMX_CHROMIUM=${process.env.CPMX_CHROMIUM}` : `${NPM_CHROMIUM.name}, pinned by package-lock.json: the same build on every machine`,
      launch: async () => launchChromium(await pinnedBrowserBinary()),
    },
  ];
  const system = process.env.CPMX_CHROMIUM ? undefined : systemChromium();
  // launchChromium's own choice when there is no CPMX_CHROMIUM: the one on the PATH.
  if (system) browsers.push({ source: system, launch: () => launchChromium() });
  return browsers;
}

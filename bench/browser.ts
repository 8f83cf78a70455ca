/**
 * Chromium for the benchmark's browser parts: the tests' (bench/chromium.ts): CPMX_CHROMIUM,
 * else a Chromium or Chrome on the PATH, else the npm one (a devDependency), so that
 * `npm run bench` measures the browser on a fresh machine with only Node. `--no-browser`
 * leaves the browser parts out (the report then says they were not measured).
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';

export function benchBrowser(enabled = true): (() => Promise<Browser>) | undefined {
  return enabled ? launchChromium : undefined;
}

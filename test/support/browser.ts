/**
 * The tests' browser: bench/chromium.ts's Chromium (CPMX_CHROMIUM, else one on the PATH, else
 * the npm one, a devDependency unpacked on first need), closed after the calling file's tests. A test that
 * needs a browser fails, never skips, when none can be had.
 */
import type { Browser } from 'playwright-core';
import { afterAll } from 'vitest';
import { launchChromium } from '../../bench/chromium.js';

export { BROWSER_INSTALL_TIMEOUT, NPM_CHROMIUM, browserBinary, systemChromium, type BrowserBinary } from '../../bench/chromium.js';

/** Browsers launched by the calling test file: one hook, registered on import, closes them (hooks registered inside a test never run). */
const launched = new Set<Browser>();
afterAll(() => Promise.all([...launched].map((browser) => browser.close())));

/** Launches headless Chromium, closed after the calling file's tests. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  launched.add(browser);
  return browser;
}

/**
 * A real browser for tests: Debian's Chromium (`apt-get install -y chromium`; .ci/run
 * installs it when missing), driven by playwright-core. Chosen over @sparticuz/chromium, the
 * npm-only build: that one is made for AWS Lambda, runs with web security off by default
 * (a CORS test would pass for the wrong reason) and unpacks itself into a /tmp shared by
 * every process, where parallel first launches fail. Debian's is a normal multi-process
 * browser with normal security. A test that needs it fails, never skips, when it is missing.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll } from 'vitest';

/** The browser's executable: CPMX_CHROMIUM, else `chromium` on the PATH. */
export function chromiumPath(): string {
  const candidates = process.env.CPMX_CHROMIUM ? [process.env.CPMX_CHROMIUM] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'chromium'));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  }
  throw new Error(
    `no Chromium found (${process.env.CPMX_CHROMIUM ? `CPMX_CHROMIUM=${process.env.CPMX_CHROMIUM}` : 'chromium on the PATH'}): ` +
      'browser tests need it; install it with `apt-get install -y chromium` (.ci/run does) or set CPMX_CHROMIUM to a Chrome or Chromium binary',
  );
}

/** Browsers launched by the calling test file: one hook, registered on import, closes them (hooks registered inside a test never run). */
const launched = new Set<Browser>();
afterAll(() => Promise.all([...launched].map((browser) => browser.close())));

/** Launches headless Chromium, closed after the calling file's tests. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  launched.add(browser);
  return browser;
}

/**
 * Chromium for the benchmark's browser parts: CPMX_CHROMIUM, else `chromium` on the PATH,
 * driven by playwright-core (the tests' launcher is test/support/browser.ts); undefined when
 * there is none, and the report says the part was not measured.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Browser } from 'playwright-core';

export function benchBrowser(): (() => Promise<Browser>) | undefined {
  const candidates = process.env.CPMX_CHROMIUM ? [process.env.CPMX_CHROMIUM] : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'chromium'));
  const executablePath = candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (!executablePath) return undefined;
  return async () => (await import('playwright-core')).chromium.launch({ executablePath, headless: true, args: ['--disable-gpu', '--no-first-run', '--disable-background-networking'] });
}

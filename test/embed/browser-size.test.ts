/**
 * What a page pays for the library: the entry of an app's browser bundle of `export * from
 * 'cpmx'`, measured as the bench measures it (bench/measure/embed.ts, the same code), held to
 * the bench's target. What no lookup needs (the OpenAPI document, the handlers' request side)
 * is left to chunks fetched at its first use; the measurement refuses any other chunk.
 */
import { describe, expect, it } from 'vitest';
import { browserBundle } from '../../bench/measure/embed.js';
import { BROWSER_BUNDLE_BUDGET } from '../../bench/report/targets.js';
import { root } from '../helpers.js';

describe('the library bundled for a browser', () => {
  it('costs the page at most the bench’s budget, gzipped, with only the OpenAPI document and the handlers’ request side left to chunks', async () => {
    const { gzipBytes, lazyGzipBytes } = await browserBundle(root);
    console.log(`browser bundle of the library: ${gzipBytes} bytes gzipped (target ≤ ${BROWSER_BUNDLE_BUDGET}), ${lazyGzipBytes} in chunks fetched at first use`);
    expect(gzipBytes).toBeLessThanOrEqual(BROWSER_BUNDLE_BUDGET);
  });
});

/**
 * What a page pays for `cpmx/web`: dist/web.js, gzipped as the bench measures it
 * (bench/measure/web.ts, the same code), held to the bench's target. What only some answers need
 * (written names, the settlement search, test mode, the geocoding answers) is web-extra.js,
 * loaded on first need; test/web/web-browser.test.ts shows a first code is answered without it.
 */
import { describe, expect, it } from 'vitest';
import { moduleGzipBytes } from '../../bench/measure/web.js';
import { WEB_MODULE_BUDGET } from '../../bench/report/targets.js';
import { root } from '../helpers.js';

describe('cpmx/web’s module', () => {
  it('costs a page at most the bench’s budget, gzipped', () => {
    const bytes = moduleGzipBytes(root, 'web.js');
    console.log(`cpmx/web: module ${bytes} bytes gzipped (target ≤ ${WEB_MODULE_BUDGET}); web-extra.js ${moduleGzipBytes(root, 'web-extra.js')}, loaded on first need`);
    expect(bytes).toBeLessThanOrEqual(WEB_MODULE_BUDGET);
  });
});

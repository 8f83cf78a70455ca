/** The tests' packages installed on first need: bench/npm-cache.ts, which the benchmark's Chromium uses too. */
export { cacheFolder, installCached } from '../../bench/npm-cache.js';

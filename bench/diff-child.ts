/**
 * One `cpmx diff` in its own process, reporting its time, peak memory and the changes found.
 *   node dist/bench/diff-child.js <old> <new>
 */
import { diffCatalogs } from '../build/diff.js';
import { openCatalog } from '../build/open-catalog.js';

const [oldPath, newPath] = process.argv.slice(2) as [string, string];
const started = performance.now();
let changes = 0;
for (const _ of diffCatalogs(await openCatalog(oldPath), await openCatalog(newPath))) changes++;
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: process.resourceUsage().maxRSS * 1024, changes })}\n`);

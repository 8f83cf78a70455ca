/**
 * One build of the artifact in its own process, reporting its time and peak memory.
 *   node dist/bench/build-child.js <catalog> <out>
 */
import { buildArtifact } from '../build/build.js';

const [source, out] = process.argv.slice(2) as [string, string];
const summary = await buildArtifact({ source, out });
process.stdout.write(`${JSON.stringify({ ms: summary.milliseconds, maxRssBytes: process.resourceUsage().maxRSS * 1024, bytes: summary.bytes })}\n`);

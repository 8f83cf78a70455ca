/**
 * Writes the report next to its results (RESULTS.md, chart.svg) and prints the targets and
 * everything after them, as both `npm run bench` and `npm run bench:report` end.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../build/write.js';
import type { Results } from '../results.js';
import { renderReport } from './render.js';

export function publishReport(results: Results, options: { out: string; write: boolean; log: (line: string) => void }): void {
  const { markdown, svg } = renderReport(results);
  if (options.write) {
    writeFileAtomic(join(options.out, 'RESULTS.md'), Buffer.from(markdown));
    writeFileAtomic(join(options.out, 'chart.svg'), Buffer.from(svg));
    options.log(`wrote ${join(options.out, 'RESULTS.md')} and chart.svg (${Buffer.byteLength(svg)} bytes)`);
  }
  process.stdout.write(`${markdown.slice(markdown.indexOf('## Design targets'))}\n`);
}

/** QUICK.md: what `npm run bench -- --quick` measured, the cold starts and lookups sections of RESULTS.md. */
import type { QuickResults } from '../measure/quick.js';
import { coldStarts, lookups } from './markdown.js';

export function renderQuick(results: QuickResults): string {
  return [
    '# Quick benchmark (`npm run bench -- --quick`): lookups and cold starts only',
    '',
    `Measured on ${results.date.slice(0, 16).replace('T', ' ')} UTC: ${results.machine.platform}, ${results.machine.cpus} cores (${results.machine.cpu}), Node ${results.machine.node}; catalog ${results.catalog}. For the whole run, with the targets: \`npm run bench\`.`,
    '',
    ...coldStarts(results),
    ...lookups(results),
  ].join('\n');
}

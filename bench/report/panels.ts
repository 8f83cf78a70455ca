/** bench/chart.svg from results.json: the headline panels, drawn by bench/chart.ts. */
import { renderChart, type Panel } from '../chart.js';
import { CONTESTANTS, LABELS } from '../contestants/types.js';
import { OPS } from '../ops.js';
import type { Results } from '../results.js';

/** The lookups the chart shows, one panel each, after the cold start. */
const HEADLINE_LOOKUPS = ['infoCp.simplified', 'infoCp.full', 'searchCp.3', 'getMunicipioPorEstado'];

export function renderResultsChart(results: Results): string {
  const panels: Panel[] = [
    {
      title: 'Cold start: import, open, first answer (ms)',
      unit: 'ms',
      values: (['cpmx', 'sqlite', 'json'] as const).map((name) => ({ label: LABELS[name], value: results.cold[name].importToAnswerMs.median, cpmx: name === 'cpmx' })),
    },
    ...HEADLINE_LOOKUPS.map((id) => ({
      title: `${OPS.find((op) => op.id === id)!.label}, per call`,
      unit: 'ns',
      values: CONTESTANTS.flatMap((name) => {
        const stat = results.lookups[id]?.[name];
        return stat ? [{ label: LABELS[name], value: stat.medianNs, cpmx: name === 'cpmx' }] : [];
      }),
    })),
  ];
  return renderChart(
    'cpmx against SQLite, naive JSON and a Map of prebuilt answers',
    `medians on the real SEPOMEX catalog, one run, ${results.machine.cpus} cores, Node ${results.machine.node}; log scale, shorter is better`,
    panels,
  );
}

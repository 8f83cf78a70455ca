/**
 * The design targets, as data: each rule reads results.json and gives one row of the targets
 * table (what, the budget, what was measured, met or not). A new target is one more rule;
 * the helpers cover the common kinds (a lookup within a budget, a lookup faster than a
 * contestant by some factor).
 */
import { LABELS, type ContestantName } from '../contestants/types.js';
import { CPMX_EXTRAS, OPS } from '../ops.js';
import type { Results } from '../results.js';
import { count, format, MB, megabytes, percent } from './format.js';

export interface Target {
  name: string;
  /** The budget, as the table writes it. */
  target: string;
  /** What was measured, as the table writes it. */
  value: string;
  pass: boolean;
}

/** Judges one target, or gives null when its part was not measured (--no-http, --no-validate). */
export type TargetRule = (results: Results) => Target | null;

const labelOf = (id: string) => [...OPS, ...CPMX_EXTRAS].find((op) => op.id === id)?.label ?? id;

/** A contestant's per-call median for lookup `id`, failing by name when it was not measured. */
export function lookupNs(results: Results, id: string, contestant: ContestantName = 'cpmx'): number {
  const stat = results.lookups[id]?.[contestant];
  if (!stat) throw new Error(`results.json has no ${LABELS[contestant]} timing of ${id}: measured before it was added? run \`npm run bench\``);
  return stat.medianNs;
}

/** cpmx's median for lookup `id` is at most `budgetNs`. */
export const lookupWithin =
  (id: string, budgetNs: number): TargetRule =>
  (results) => {
    const ns = lookupNs(results, id);
    return { name: `${labelOf(id)}, median`, target: `≤ ${budgetNs} ns`, value: format(ns, 'ns'), pass: ns <= budgetNs };
  };

/** cpmx answers lookup `id` at least `factor` times faster than `contestant` (named `short` in the row). */
export const lookupFasterThan =
  (id: string, contestant: ContestantName, short: string, factor: number): TargetRule =>
  (results) => {
    const times = lookupNs(results, id, contestant) / lookupNs(results, id);
    return { name: `${labelOf(id)} vs ${short}`, target: `≥ ${factor}× faster`, value: `${times.toFixed(0)}×`, pass: times >= factor };
  };

export const TARGETS: TargetRule[] = [
  ({ sizes }) => ({ name: 'artifact size', target: '≤ 2.5 MB', value: megabytes(sizes.artifact, 2), pass: sizes.artifact <= 2.5 * MB }),
  ({ cold }) => {
    const ms = cold.cpmx.importToAnswerMs.median;
    return { name: 'cold load: import, open, first answer', target: '≤ 20 ms', value: format(ms, 'ms'), pass: ms <= 20 };
  },
  ({ cold }) => {
    const bytes = cold.cpmx.heapUsedBytes.median;
    return { name: 'heap after load (whole process, after GC)', target: '≤ 12 MB', value: megabytes(bytes, 1), pass: bytes <= 12 * MB };
  },
  lookupWithin('infoCp.simplified', 150),
  lookupWithin('infoCp.full', 300),
  (results) => {
    // Answering a search copies the list, which no index can avoid: the budget is over that.
    const copy = lookupNs(results, 'listCopy.3');
    const ns = lookupNs(results, 'searchCp.3');
    return { name: 'searchCp 3 digits, median', target: `≤ 1 µs + copying the list (${format(copy, 'ns')})`, value: format(ns, 'ns'), pass: ns <= 1000 + copy };
  },
  lookupFasterThan('infoCp.simplified', 'sqlite', 'SQLite', 20),
  ({ cold }) => {
    const times = cold.json.importToAnswerMs.median / cold.cpmx.importToAnswerMs.median;
    return { name: 'cold load vs naive JSON', target: '≥ 10× faster', value: `${times.toFixed(0)}×`, pass: times >= 10 };
  },
  ({ http }) => {
    if (!http) return null;
    const failed = http.cpmx.errors + http.cpmx.non2xx + http.cpmx.timeouts;
    return { name: 'HTTP: no errors, no non-2xx, 50 connections', target: '0', value: `${failed} of ${count(http.cpmx.requests)}`, pass: failed === 0 };
  },
  ({ http }) =>
    http && {
      name: 'HTTP: info_cp throughput vs bare Node http (median of rounds)',
      target: '≥ 80%',
      value: `${percent(http.ratio)} [${Math.round(100 * Math.min(...http.ratios))} – ${Math.round(100 * Math.max(...http.ratios))}]`,
      pass: http.ratio >= 0.8,
    },
  // Validation is judged on every core (--jobs N) against csv-parse on one; results measured
  // before validation ran on every core hold one single-threaded run, judged by the budgets of then.
  ({ validate }) => {
    if (!validate) return null;
    const { parallel, jobs } = validate;
    const share = (parallel ?? validate.cpmx).recordsPerSecond / validate.csvParse.recordsPerSecond;
    return parallel
      ? { name: `validate: records/s with --jobs ${jobs} vs csv-parse alone on one thread (${count(validate.records)} records)`, target: '≥ 100%', value: percent(share), pass: share >= 1 }
      : { name: `validate: records/s vs csv-parse alone (${count(validate.records)} records)`, target: '≥ 50%', value: percent(share), pass: share >= 0.5 };
  },
  ({ validate }) => {
    if (!validate) return null;
    const { parallel, parallelSmallMaxRssBytes, jobs } = validate;
    const [small, large, limit] = parallel && parallelSmallMaxRssBytes !== undefined ? [parallelSmallMaxRssBytes, parallel.maxRssBytes, 250] : [validate.smallMaxRssBytes, validate.cpmx.maxRssBytes, 200];
    return {
      name: `validate: peak memory flat as the file grows 4×${parallel ? ` (--jobs ${jobs})` : ''}`,
      target: `≤ 1.25× (and < ${limit} MB)`,
      value: `${(small / MB).toFixed(0)} → ${megabytes(large, 0)}`,
      pass: large <= 1.25 * small && large < limit * MB,
    };
  },
];

/** Every target that applies to these results, judged. */
export function judge(results: Results): Target[] {
  return TARGETS.map((rule) => rule(results)).filter((target): target is Target => target !== null);
}

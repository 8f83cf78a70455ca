/**
 * One contestant's lookups, timed with tinybench in a process of its own, so contestants do
 * not share JIT and allocation feedback (building the upper bound from cpmx's answers, for
 * one, teaches V8 to pretenure what cpmx allocates). Prints one JSON object: op → stats.
 *   node dist/bench/lookups.js <contestant> <work> <workload.json> <time-ms>
 */
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import { createClient } from 'cpmx';
import { dataPaths, type ContestantModule } from './contestants/types.js';
import { OPS, VERSION_2_OPS, WARMUP_MS, copyId } from './ops.js';
import type { LookupStat } from './results.js';
import { quantiles } from './stats.js';
import type { Workload } from './workload.js';

const [name, work, workloadPath, time] = process.argv.slice(2) as [string, string, string, string];
const workload = JSON.parse(readFileSync(workloadPath, 'utf8')) as Workload;
const api = ((await import(`./contestants/${name}.js`)) as ContestantModule).open(dataPaths(work));

let sink: unknown;

/** Warms the call up (every query once, within a second), then sizes batches so one sample lasts about 20 µs. */
function task<Q>(call: (query: Q) => unknown, queries: readonly Q[]) {
  let i = 0;
  const one = () => {
    const result = call(queries[i]!);
    i = i + 1 === queries.length ? 0 : i + 1;
    return result;
  };
  // Every query once (for at most a second: the slowest contestants take milliseconds a query),
  // then 50 ms: what a contestant prepares per query on first use (cpmx each code's entry) is
  // done before the batch is sized, as it is long before a median is taken.
  const warm = performance.now();
  for (let k = 0; k < queries.length && performance.now() - warm < 1000; k++) sink = one();
  for (let start = performance.now(); performance.now() - start < 50; ) sink = one();
  // Calls per millisecond from the fastest of ten short windows: on a shared machine one window
  // preempted by another process would size every sample at one call, timed mostly by the timer.
  let perMs = 0;
  for (let window = 0; window < 10; window++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < 2) {
      sink = one();
      n++;
    }
    perMs = Math.max(perMs, n / (performance.now() - start));
  }
  const batch = Math.max(1, Math.min(1000, Math.round(0.02 * perMs)));
  return {
    batch,
    fn: () => {
      for (let k = 0; k < batch; k++) sink = one();
    },
  };
}

// Samples are kept so their quantiles come from bench/stats.ts like every other number.
const bench = new Bench({ time: Number(time), warmupTime: WARMUP_MS, retainSamples: true });
const batches = new Map<string, number>();
const add = <Q>(id: string, call: (query: Q) => unknown, queries: readonly Q[]) => {
  const { batch, fn } = task(call, queries);
  batches.set(id, batch);
  bench.add(id, fn);
};
for (const op of OPS) add(op.id, (q) => op.run(api, q), op.queries(workload));
if (name === 'cpmx') {
  const client = createClient({ token: 'bench', dataPath: dataPaths(work).artifact });
  add('query.path', (q) => client.query(`/query/info_cp/${q}?token=bench&type=simplified`), workload.codes);
  const lists = workload.prefixes3.map((p) => (client.searchCp(p) as { response: { cp: string[] } }).response.cp);
  let i = 0;
  add(
    'listCopy.3',
    () => {
      const list = lists[i]!;
      i = i + 1 === lists.length ? 0 : i + 1;
      return { error: false, code_error: 0, error_message: null, response: { cp: list.slice() } };
    },
    [''],
  );
  add('consultasDisponibles', () => client.consultasDisponibles(), ['']);
  // What no answer can avoid: copying its list (or object) into a fresh envelope, for the same queries.
  for (const op of VERSION_2_OPS) {
    const responses = op.queries(workload).map((query) => (op.run(api, query) as { response: Record<string, unknown> }).response);
    add(copyId(op.id), (response: Record<string, unknown>) => copyResponse(response), responses);
  }
}

/** A fresh envelope around a copy of `response`'s one member: an array sliced, an object spread. */
function copyResponse(response: Record<string, unknown>) {
  const copy: Record<string, unknown> = {};
  for (const key in response) {
    const value = response[key];
    copy[key] = Array.isArray(value) ? value.slice() : { ...(value as object) };
  }
  return { error: false, code_error: 0, error_message: null, response: copy };
}
await bench.run();
void sink;

const stats: Record<string, LookupStat> = {};
for (const t of bench.tasks) {
  const result = t.result as { state: string; latency?: { samples?: readonly number[]; rme: number; samplesCount: number }; error?: Error };
  if (result.state !== 'completed' || !result.latency?.samples) throw new Error(`${name} ${t.name} did not complete: ${result.error?.message ?? result.state}`);
  const batch = batches.get(t.name)!;
  const [p50, p75, p99] = quantiles(result.latency.samples, [0.5, 0.75, 0.99]).map((ms) => (ms * 1e6) / batch) as [number, number, number];
  stats[t.name] = {
    medianNs: p50,
    p75Ns: p75,
    p99Ns: p99,
    rmePercent: result.latency.rme,
    samples: result.latency.samplesCount,
    batch,
  };
}
api.close?.();
process.stdout.write(`${JSON.stringify(stats)}\n`);

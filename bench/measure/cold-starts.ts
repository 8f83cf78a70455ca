/**
 * Cold starts: each contestant imported, opened and asked one code in a fresh process,
 * the contestants interleaved run by run so drift on a shared machine falls on all alike.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { COLD_CONTESTANTS, type ColdName, type ColdResults, type ColdStat } from '../results.js';
import { spread } from '../stats.js';

export interface ColdSample {
  ok: boolean;
  importToAnswerMs: number;
  importMs: number;
  openMs: number;
  answerMs: number;
  sinceProcessStartMs: number;
  heapUsed: number;
  rss: number;
}

/** One cold start of `name` (a contestant of bench/cold.ts) in a fresh process. */
export function coldRun(options: { compiled: string; work: string; code: string }, name: string): ColdSample {
  const out = execFileSync(process.execPath, [join(options.compiled, 'cold.js'), name, options.work, options.code], { encoding: 'utf8' });
  const sample = JSON.parse(out) as ColdSample;
  if (!sample.ok) throw new Error(`cold start of ${name} did not answer ${options.code}`);
  return sample;
}

/** The spreads of a contestant's samples. */
export function coldStat(runs: ColdSample[]): ColdStat {
  return {
    importToAnswerMs: spread(runs.map((s) => s.importToAnswerMs)),
    stepsMs: { importMs: spread(runs.map((s) => s.importMs)), openMs: spread(runs.map((s) => s.openMs)), answerMs: spread(runs.map((s) => s.answerMs)) },
    sinceProcessStartMs: spread(runs.map((s) => s.sinceProcessStartMs)),
    heapUsedBytes: spread(runs.map((s) => s.heapUsed)),
    rssBytes: spread(runs.map((s) => s.rss)),
  };
}

export function timeColdStarts(options: { compiled: string; work: string; runs: number; code: string }): ColdResults {
  const samples = new Map<ColdName, ColdSample[]>(COLD_CONTESTANTS.map((name) => [name, []]));
  for (let run = 0; run < options.runs; run++) {
    for (const name of COLD_CONTESTANTS) samples.get(name)!.push(coldRun(options, name));
  }
  return Object.fromEntries(COLD_CONTESTANTS.map((name) => [name, coldStat(samples.get(name)!)])) as ColdResults;
}

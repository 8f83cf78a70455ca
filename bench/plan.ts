/**
 * What a run of `npm run bench` will do, how long each part takes, and where it writes: said
 * before the first minute is spent, and followed part by part while it runs. The durations
 * are estimates from runs on the shared 2-core machines at the default settings (the HTTP part
 * alone took about 15 of a whole run's 19 minutes; a quick run took 2 minutes at a load of 13:
 * 4 s preparing, 5 s of cold starts, 31 s checking, 92 s of lookups), scaled by the settings;
 * each run records what every part really took (results.json `durations`) to check them against.
 */
import { join } from 'node:path';
import { CONTESTANTS } from './contestants/types.js';
import { CPMX_EXTRAS, OPS, WARMUP_MS } from './ops.js';

export interface BenchSettings {
  /** Only the lookup figures (and the cold starts, which cost seconds): a minute or two. */
  quick: boolean;
  taskTimeMs: number;
  coldRuns: number;
  httpSeconds: number;
  validateRecords: number;
  http: boolean;
  validate: boolean;
  browser: boolean;
  /** The polygons are beside the repository (../shared/data/sepomex-geo/): the geodata is measured. */
  geo: boolean;
}

export interface Part {
  id: string;
  label: string;
  /** The measuring step's first log line of the part. */
  starts: RegExp;
  /** Estimated seconds at these settings. */
  seconds: number;
}

/** Lookups: every operation for every contestant, and cpmx's extras, each warm-up plus task time. */
const LOOKUP_TASKS = OPS.length * CONTESTANTS.length + CPMX_EXTRAS.length;

/** The parts a run with `settings` goes through, in order. */
export function benchPlan(s: BenchSettings): Part[] {
  const lookupSeconds = Math.round((LOOKUP_TASKS * (s.taskTimeMs + WARMUP_MS) * 1.5) / 1000);
  const cold: Part = { id: 'cold', label: 'cold starts', starts: /^cold start:/, seconds: Math.round(s.coldRuns * 5 * 0.15) + 1 };
  const prepare: Part = { id: 'prepare', label: 'preparing the contestants (cpmx, SQLite, JSON)', starts: /^preparing contestants/, seconds: 10 };
  const alike: Part = { id: 'alike', label: 'checking that every contestant answers alike', starts: /^opening every contestant/, seconds: 30 };
  const lookups: Part = { id: 'lookups', label: 'lookups, every contestant', starts: /^lookups of /, seconds: lookupSeconds };
  if (s.quick) return [prepare, cold, alike, lookups];
  const scaleHttp = s.httpSeconds / 3;
  return [
    prepare,
    { id: 'build', label: 'cpmx build, 3 runs', starts: /^build:/, seconds: 10 },
    { id: 'diff', label: 'cpmx diff, 3 runs', starts: /^diff:/, seconds: 15 },
    cold,
    { id: 'command-line', label: 'command line: cpmx info_cp against node -e 0', starts: /^command line:/, seconds: 5 },
    { id: 'embed', label: 'embedding: bytes and file cold starts, the browser bundle', starts: /^embedding:/, seconds: Math.round(s.coldRuns * 2 * 0.15) + 5 },
    { id: 'web', label: `cpmx/web: export, fetched bytes${s.browser ? ', first answer in Chromium' : ''}`, starts: /^web:/, seconds: s.browser ? 60 : 25 },
    alike,
    lookups,
    ...(s.http
      ? [
          { id: 'http', label: 'HTTP: cpmx serve and the handlers against bare node:http, in pairs of processes', starts: /^http:/, seconds: Math.round(600 * scaleHttp) + 30 },
          { id: 'credits', label: 'credits: no registry, SQLite, PostgreSQL', starts: /^credits:/, seconds: Math.round(90 * scaleHttp) + 20 },
          { id: 'panel', label: 'control panel pages and log-ins', starts: /^panel:/, seconds: Math.round(150 * scaleHttp) + 20 },
        ]
      : []),
    ...(s.validate ? [{ id: 'validate', label: `validate, ${s.validateRecords.toLocaleString('en-US')} records`, starts: /^validate:/, seconds: Math.round(s.validateRecords / 20_000) + 10 }] : []),
    { id: 'parse', label: 'parse: one-line addresses', starts: /^parse:/, seconds: Math.round(10 * (s.taskTimeMs / 400)) + 2 },
    { id: 'inferred', label: 'inferred codes: codes found from names', starts: /^inferred codes:/, seconds: Math.round(10 * (s.taskTimeMs / 400)) + 2 },
    // 19 s alone on the shared machine (13:30 UTC, 2026-11-27): 1.3 s of build, the rest the three contestants over 200,000 points.
    ...(s.geo ? [{ id: 'geo', label: 'geodata: build of the polygons given, reverse geocoding against flatbush + turf', starts: /^geo:/, seconds: 30 }] : []),
  ];
}

/** `90 s`, `4 min`, `19 min`. */
export function duration(seconds: number): string {
  return seconds < 100 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/** The plan as said before a run starts. */
export function describePlan(parts: Part[], out: string | undefined): string {
  const total = parts.reduce((sum, part) => sum + part.seconds, 0);
  return [
    `bench: about ${duration(total)} on a quiet 2-core machine (more under load), in ${parts.length} parts:`,
    ...parts.map((part, i) => `  ${i + 1}. ${part.label}: about ${duration(part.seconds)}`),
    out === undefined ? '  results: printed, not written (--no-write)' : `  results into ${out}`,
  ].join('\n');
}

/**
 * Where a run writes results.json, RESULTS.md and chart.svg: `--out` when given; the committed
 * bench/ only with `--publish` (a whole run); otherwise the ignored bench/work/, so a run leaves
 * the checkout as it was.
 */
export function outputDirectory(options: { out?: string | undefined; publish: boolean; quick: boolean; partial: boolean }, benchDirectory: string): string {
  if (options.publish) {
    if (options.out !== undefined) throw new Error('--publish writes the committed bench/RESULTS.md, chart.svg and results.json: give it no --out');
    if (options.quick) throw new Error('--quick measures only the lookups: the committed results are a whole run, so --quick cannot --publish');
    if (options.partial) throw new Error('the committed results are a whole run: --publish goes without --no-http, --no-validate, --no-browser and --no-geo');
    return benchDirectory;
  }
  return options.out ?? join(benchDirectory, 'work');
}

/**
 * Follows the run part by part from the measuring step's log lines: before each part's first
 * line, its number, its estimate and the time so far. `finish` gives what each part took.
 */
export function followParts(parts: Part[], log: (line: string) => void, now: () => number = () => performance.now()) {
  const started = now();
  const total = parts.reduce((sum, part) => sum + part.seconds, 0);
  const begun: { id: string; at: number }[] = [];
  return {
    log(line: string): void {
      const index = parts.findIndex((part) => part.starts.test(line) && !begun.some((one) => one.id === part.id));
      if (index >= 0) {
        const part = parts[index]!;
        const elapsed = (now() - started) / 1000;
        const left = parts.slice(index).reduce((sum, one) => sum + one.seconds, 0);
        begun.push({ id: part.id, at: now() });
        log(`[${index + 1}/${parts.length}] ${part.label} (about ${duration(part.seconds)}; ${duration(elapsed)} so far of about ${duration(total)}, about ${duration(left)} left)`);
      }
      log(line);
    },
    /** Seconds each begun part took (to the next part's start, the last to now). */
    finish(): Record<string, number> {
      const end = now();
      return Object.fromEntries(begun.map((one, i) => [one.id, Math.round(((begun[i + 1]?.at ?? end) - one.at) / 100) / 10]));
    },
  };
}

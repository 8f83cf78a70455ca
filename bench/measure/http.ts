/**
 * The HTTP load check: `cpmx serve` answering info_cp for catalog codes, next to a bare Node
 * http server answering a constant body of the same size, on loopback, in the same run.
 * Both are loaded with autocannon by 50 connections for a bounded time, alternately, in rounds;
 * the medians are reported, as the machines are shared and single runs drift.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { HttpResults, HttpStat } from '../results.js';
import { median } from '../stats.js';

export function start(command: string[], label: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${label} exited ${code}: ${output}`)));
  });
}

export function load(url: string, paths: string[], connections: number, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, requests: paths.map((path) => ({ method: 'GET', path })) }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

export function stat(results: autocannon.Result[]): HttpStat {
  return {
    requestsPerSecond: median(results.map((r) => r.requests.average)),
    latencyP50Ms: median(results.map((r) => r.latency.p50)),
    latencyP99Ms: median(results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    requests: results.reduce((sum, r) => sum + r.requests.total, 0),
  };
}

/** Runs the check against the artifact at `artifact`; `codes` are the info_cp codes asked for. */
export async function httpLoad(options: { cli: string; bareServer: string; artifact: string; work: string; codes: string[]; seconds?: number; rounds?: number; log?: (line: string) => void }): Promise<HttpResults> {
  const connections = 50;
  const seconds = options.seconds ?? 3;
  const rounds = options.rounds ?? 5;
  const paths = options.codes.slice(0, 200).map((cp) => `/query/info_cp/${cp}?token=bench&type=simplified`);
  const cpmx = await start([options.cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', options.artifact], 'cpmx serve');
  // The reference body: as long as cpmx's answers to the same requests are on average, so
  // both servers put the same bytes on the wire.
  let total = 0;
  for (const path of paths) total += Buffer.byteLength(await (await fetch(cpmx.url + path)).text());
  const bodyBytes = Math.round(total / paths.length);
  const bodyFile = join(options.work, 'bare-body.json');
  const empty = JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: '' } });
  writeFileSync(bodyFile, JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: 'x'.repeat(Math.max(0, bodyBytes - empty.length)) } }));
  const bare = await start([options.bareServer, bodyFile], 'bare server');
  try {
    await load(cpmx.url, paths, connections, 2);
    await load(bare.url, paths, connections, 2);
    const runs = { cpmx: [] as autocannon.Result[], bare: [] as autocannon.Result[] };
    for (let round = 0; round < rounds; round++) {
      options.log?.(`http: round ${round + 1} of ${rounds}, ${seconds} s each ...`);
      runs.cpmx.push(await load(cpmx.url, paths, connections, seconds));
      runs.bare.push(await load(bare.url, paths, connections, seconds));
    }
    const ratios = runs.cpmx.map((run, i) => run.requests.average / runs.bare[i]!.requests.average);
    return { connections, seconds, rounds, bodyBytes, cpmx: stat(runs.cpmx), bare: stat(runs.bare), ratios, ratio: median(ratios) };
  } finally {
    cpmx.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
  }
}

/**
 * What `cpmx serve --metrics` costs on the answer path: the HTTP part's load (50 connections,
 * info_cp of 200 catalog codes, autocannon) against `cpmx serve`, `cpmx serve --metrics` and
 * the bare Node server, in turn, in rounds whose order rotates; medians and ratios, side by
 * side in one run (the machines are shared). Not part of `npm run bench`:
 *   npm run compile && node dist/bench/metrics-overhead.js [--data FILE] [--seconds S] [--rounds N]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { createClient } from '../src/index.js';
import { packageRoot } from '../src/package-root.js';
import { load, start, stat } from './measure/http.js';
import { median } from './stats.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, seconds: { type: 'string' }, rounds: { type: 'string' } } });
const artifact = resolve(values.data ?? join(packageRoot, 'data', 'cpmx.msgpack'));
const seconds = Number(values.seconds ?? 3);
const rounds = Number(values.rounds ?? 5);
const connections = 50;

const client = createClient({ token: 'demo', dataPath: artifact });
const all: string[] = [];
for (let d = 0; d <= 9; d++) all.push(...(client.searchCp(String(d)) as { response: { cp: string[] } }).response.cp);
const codes = Array.from({ length: 200 }, (_, i) => all[Math.floor((i * all.length) / 200)]!);
const paths = codes.map((cp) => `/query/info_cp/${cp}?token=bench&type=simplified`);

const cli = join(packageRoot, 'dist', 'cli.cjs');
const work = mkdtempSync(join(tmpdir(), 'cpmx-metrics-bench-'));
const off = await start([cli, 'serve', '--port', '0', '--data', artifact], 'cpmx serve');
const on = await start([cli, 'serve', '--port', '0', '--data', artifact, '--metrics'], 'cpmx serve --metrics');
let total = 0;
for (const path of paths) total += Buffer.byteLength(await (await fetch(off.url + path)).text());
const bodyFile = join(work, 'bare-body.json');
const empty = JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: '' } });
writeFileSync(bodyFile, JSON.stringify({ error: false, code_error: 0, error_message: null, response: { padding: 'x'.repeat(Math.max(0, Math.round(total / paths.length) - empty.length)) } }));
const bare = await start([join(packageRoot, 'dist', 'bench', 'bare-server.js'), bodyFile], 'bare server');
const servers = { off, on, bare };
const runs: Record<keyof typeof servers, autocannon.Result[]> = { off: [], on: [], bare: [] };
try {
  for (const server of Object.values(servers)) await load(server.url, paths, connections, 2);
  const order = ['off', 'on', 'bare'] as const;
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`round ${round + 1} of ${rounds}, ${seconds} s each ...\n`);
    for (let i = 0; i < order.length; i++) {
      const name = order[(i + round) % order.length]!;
      runs[name].push(await load(servers[name].url, paths, connections, seconds));
    }
  }
  const rps = (name: keyof typeof servers) => runs[name].map((run) => run.requests.average);
  const ratio = (a: keyof typeof servers, b: keyof typeof servers) => median(rps(a).map((value, i) => value / rps(b)[i]!));
  const metricsText = await (await fetch(`${on.url}/metrics`)).text();
  const counted = /cpmx_http_requests_total\{method="GET",status="200"\} (\d+)/.exec(metricsText)?.[1];
  const line = (name: keyof typeof servers) => {
    const s = stat(runs[name]);
    return `${name.padEnd(5)} ${Math.round(s.requestsPerSecond)} req/s, p50 ${s.latencyP50Ms} ms, p99 ${s.latencyP99Ms} ms, non-2xx ${s.non2xx}, errors ${s.errors}`;
  };
  process.stdout.write(
    [
      `${rounds} rounds of ${seconds} s, ${connections} connections, ${paths.length} info_cp codes; medians`,
      line('off'),
      line('on'),
      line('bare'),
      `ratio --metrics on / off: ${ratio('on', 'off').toFixed(3)} (per round: ${rps('on').map((v, i) => (v / rps('off')[i]!).toFixed(3)).join(', ')})`,
      `ratio off / bare: ${ratio('off', 'bare').toFixed(3)}; on / bare: ${ratio('on', 'bare').toFixed(3)}`,
      `the metrics server counted ${counted} GET 200 answers; autocannon sent ${stat(runs.on).requests} in the measured runs`,
    ].join('\n') + '\n',
  );
} finally {
  for (const server of Object.values(servers)) server.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}

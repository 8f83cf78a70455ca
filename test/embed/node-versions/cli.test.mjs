// The command line on each Node tested: lookups, status, build, validate and serve.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';

// The installed package's command line; CPMX_FIXTURE names the small catalog to build.
const cli = join(dirname(createRequire(import.meta.url).resolve('cpmx/package.json')), 'dist', 'cli.cjs');
const fixture = process.env.CPMX_FIXTURE;
const cpmx = (args) => JSON.parse(execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8' }));
const scratch = mkdtempSync(join(tmpdir(), 'cpmx-lowest-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('cpmx', () => {
  it('answers the lookups and reports its artifact', () => {
    assert.equal(cpmx(['info_cp', '09810', '--token', 'demo', '--type', 'simplified']).response.municipio, 'Iztapalapa');
    assert.deepEqual(cpmx(['search_cp', '0981', '--token', 'demo']).response.cp, ['09810', '09819']);
    assert.equal(cpmx(['status']).loaded, true);
  });

  it('builds an artifact and validates addresses with it', () => {
    const out = join(scratch, 'mini.msgpack');
    execFileSync(process.execPath, [cli, 'build', '--source', fixture, '--out', out], { encoding: 'utf8', stdio: 'pipe' });
    assert.deepEqual(cpmx(['search_cp', '0', '--token', 'demo', '--data', out]).response.cp, ['01000', '01010', '03100', '09810', '09819']);
    const run = spawnSync(process.execPath, [cli, 'validate', '-', '--quiet', '--data', out], { input: 'cp,estado\n09810,Ciudad de México\n1000,Jalisco\n', encoding: 'utf8' });
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.equal(JSON.parse(lines[0]).valid, true);
    assert.equal(JSON.parse(lines[1]).valid, false);
  });

  it('serves the HTTP API', async () => {
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk) => {
          text += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(text);
          if (match) resolve(match[1]);
        });
        child.on('exit', (code) => reject(new Error(`cpmx serve exited ${code}`)));
      });
      const response = await fetch(`${url}/query/info_cp/09810?token=demo&type=simplified`);
      assert.equal(response.status, 200);
      assert.equal((await response.json()).response.cp, '09810');
    } finally {
      child.kill('SIGTERM');
    }
  });
});

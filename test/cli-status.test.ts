/**
 * Issue 32 item 5: `cpmx status` printed one line of JSON to a person at a terminal. It reads
 * as text there; `--json` gives the JSON on a terminal, and a pipe gets the JSON as before, so
 * scripts that parse it keep working.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, FIXTURE, buildInto, tempDir } from './helpers.js';

const dir = tempDir();
let dataPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
});

/** `cpmx status` under a pseudo-terminal (util-linux's `script`); what the terminal showed. */
function onTerminal(args: string[]): { status: number | null; shown: string } {
  const run = spawnSync('script', ['-qec', [process.execPath, CLI, 'status', ...args].map((arg) => `'${arg}'`).join(' '), '/dev/null'], { encoding: 'utf8' });
  if (run.error) throw new Error(`script (util-linux) is needed to run cpmx on a terminal: ${run.error.message}`);
  return { status: run.status, shown: run.stdout.replaceAll('\r\n', '\n') };
}

describe('cpmx status', () => {
  it('reads as text on a terminal: the artifact, the date and age, the counts, the source, the terms', () => {
    const { status, shown } = onTerminal(['--data', dataPath]);
    expect(status).toBe(0);
    expect(shown).not.toContain('{');
    expect(shown).toMatch(new RegExp(`^artifact +${dataPath}$`, 'm'));
    expect(shown).toMatch(/^catalog +dated \d{4}-\d\d-\d\d, \d+ days old$/m);
    expect(shown).toMatch(/^holds +15 postal codes, 22 settlements, 12 municipalities, 6 states$/m);
    expect(shown).toMatch(/^source +catalog-mini\.txt, [\d,]+ bytes, latin1, dated \d{4}-\d\d-\d\d by its modification time; sha256 [0-9a-f]{64}$/m);
    expect(shown).toMatch(/^built +2026-01-01T00:00:00\.000Z$/m);
    expect(shown).toMatch(/^terms +El Catálogo Nacional de Códigos Postales/m);
  });

  it('gives JSON with --json on a terminal, and to a pipe as before', () => {
    const json = onTerminal(['--data', dataPath, '--json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.shown)).toMatchObject({ artifact: dataPath, loaded: true, header: { rows: 22, codes: 15 } });
    for (const args of [[], ['--json']]) {
      const piped = spawnSync(process.execPath, [CLI, 'status', '--data', dataPath, ...args], { encoding: 'utf8' });
      expect(piped.status).toBe(0);
      expect(piped.stdout.trimEnd().split('\n')).toHaveLength(1);
      expect(JSON.parse(piped.stdout)).toMatchObject({ artifact: dataPath, loaded: true, header: { rows: 22 }, catalogAgeDays: expect.any(Number) });
    }
  });
});

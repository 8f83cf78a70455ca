/**
 * Issue 32 item 5: `cpmx status` printed one line of JSON to a person at a terminal. It reads
 * as text there; `--json` gives the JSON on a terminal, and a pipe gets the JSON as before, so
 * scripts that parse it keep working.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeArtifact } from '../../build/write.js';
import { readArtifact } from '../../src/core/catalog.js';
import type { Artifact } from '../../src/core/format.js';
import { CLI, FIXTURE, buildInto, tempDir } from '../helpers.js';

const dir = tempDir();
let dataPath: string;
/** The fixture's artifact with corrections and a history in its header, one note hostile to a terminal. */
let correctedPath: string;

beforeAll(async () => {
  dataPath = await buildInto(FIXTURE, dir);
  const artifact = readArtifact(readFileSync(dataPath)) as Artifact;
  const header = {
    ...artifact.header,
    corrections: {
      file: 'fixes.csv',
      sha256: 'a'.repeat(64),
      applied: [
        { line: 2, action: 'rename-settlement' as const, cp: '01000', asentamiento: 'San Ángel', nuevo_asentamiento: 'San Ángel Inn', nota: 'ticket 12' },
        { line: 3, action: 'remove-settlement' as const, cp: '09810', asentamiento: 'Minerva', nota: 'clear\u001b[2J\u0007\u202eevil' },
      ],
      dropped: [{ line: 4, action: 'add-settlement' as const, cp: '02999', asentamiento: 'Nueva', reason: 'now in the official file', droppedAt: '2026-01-15T10:30:00' }],
    },
    history: { previous: [{ file: 'CPdescargatxt-2025.zip', sha256: 'b'.repeat(64), date: '2025-06-01T00:00:00', codes: 14 }], retired: 1, added: 2 },
  };
  correctedPath = join(dir, 'corrected.msgpack');
  writeFileSync(correctedPath, encodeArtifact({ ...artifact, header }));
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

  it('lists the corrections and the history, with what a note holds for a terminal shown as escapes', () => {
    const { status, shown } = onTerminal(['--data', correctedPath]);
    expect(status).toBe(0);
    expect(shown).toMatch(/^corrections +2 applied from fixes\.csv, 1 dropped \(no longer apply\)$/m);
    expect(shown).toMatch(/^ +line 2: rename-settlement 01000 \(ticket 12\)$/m);
    expect(shown).toContain('line 3: remove-settlement 09810 (clear\\u001b[2J\\u0007\\u202eevil)');
    for (const raw of ['\u001b', '\u0007', '\u202e']) expect(shown).not.toContain(raw);
    expect(shown).toMatch(/^ +dropped +line 4: add-settlement 02999: now in the official file$/m);
    expect(shown).toMatch(/^history +1 codes retired, 2 added, against CPdescargatxt-2025\.zip \(2025-06-01\)$/m);
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

/**
 * A large address file for the validation benchmark, drawn from the catalog with a seeded
 * generator: most records right, the rest with the mistakes people make (a code that lost
 * its leading zero, an unknown code, the wrong state or municipality, a settlement with a
 * typo or a prefix like "Col."), in the CSV shape data teams export.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Lookups } from './contestants/types.js';
import { random } from './workload.js';

interface Simplified {
  response: { asentamiento: string[]; municipio: string; estado: string; ciudad: string };
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Writes `count` records to `path`; resolves to the number of records written. */
export async function writeAddressCsv(cpmx: Lookups, codes: string[], path: string, count: number, seed = 7): Promise<number> {
  const next = random(seed);
  const facts = new Map<string, Simplified['response']>();
  const out = createWriteStream(path);
  out.write('codigo_postal,colonia,municipio,estado,ciudad\n');
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const cp = codes[Math.floor(next() * codes.length)]!;
    let f = facts.get(cp);
    if (!f) {
      f = (cpmx.infoCp(cp, true) as Simplified).response;
      facts.set(cp, f);
    }
    let fields = [cp, f.asentamiento[Math.floor(next() * f.asentamiento.length)]!, f.municipio, f.estado, f.ciudad];
    const roll = next();
    if (roll < 0.02 && cp.startsWith('0')) fields[0] = cp.slice(1);
    else if (roll < 0.03) fields[0] = String(Math.floor(next() * 100000)).padStart(5, '0');
    else if (roll < 0.05) fields[3] = 'Jalisco';
    else if (roll < 0.07) fields[2] = 'Centro';
    else if (roll < 0.09) fields[1] = `Col. ${fields[1]}`;
    else if (roll < 0.1) fields[1] = fields[1]!.slice(0, -1);
    else if (roll < 0.3) fields = [fields[0]!, fields[1]!.toUpperCase(), '', fields[3]!.normalize('NFD').replace(/\p{M}/gu, ''), ''];
    chunk += `${fields.map(csvField).join(',')}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return count;
}

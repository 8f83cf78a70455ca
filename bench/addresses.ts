/**
 * A large address file for the validation benchmark, drawn from the catalog with a seeded
 * generator: most records right, the rest with the mistakes people make (a code that lost
 * its leading zero, an unknown code, the wrong state or municipality, a settlement with a
 * typo or a prefix like "Col."), some right ones written as people write names (a state
 * abbreviated, a municipality with its title, a settlement with its type in front), in the
 * CSV shape data teams export. `quoted` adds a first column that CRM exports quote
 * (`"Cliente 17, S.A. de C.V."`); its twin without quotes (`Cliente 17 S.A. de C.V.`) must
 * be judged exactly the same.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Lookups } from './contestants/types.js';
import { STATE_FORMS } from '../src/core/name-forms.js';
import { random } from './workload.js';

interface Simplified {
  response: { asentamiento: string[]; municipio: string; estado: string; ciudad: string };
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A state's usual abbreviation (`N.L.` for Nuevo León), else its name. */
const abbreviations = new Map(STATE_FORMS.map((state) => [state.name, state.forms[0]!]));

/** The first column of a CRM export: quoted (it holds the delimiter), or its twin without quotes. */
export type ClientColumn = 'quoted' | 'unquoted';

/** Writes `count` records to `path`; resolves to the number of records written. */
export async function writeAddressCsv(cpmx: Lookups, codes: string[], path: string, count: number, seed = 7, client?: ClientColumn): Promise<number> {
  const next = random(seed);
  const facts = new Map<string, Simplified['response']>();
  const out = createWriteStream(path);
  out.write(`${client ? 'cliente,' : ''}codigo_postal,colonia,municipio,estado,ciudad\n`);
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
    else if (roll < 0.33) fields[3] = abbreviations.get(fields[3]!) ?? fields[3]!;
    else if (roll < 0.35) fields[2] = `Mpio. de ${fields[2]}`;
    else if (roll < 0.37) fields[1] = `COL. ${fields[1]!.toUpperCase()}`;
    const name = client === 'quoted' ? `"Cliente ${i}, S.A. de C.V.",` : client ? `Cliente ${i} S.A. de C.V.,` : '';
    chunk += `${name}${fields.map(csvField).join(',')}\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return count;
}

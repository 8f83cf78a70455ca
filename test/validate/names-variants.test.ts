/**
 * Real records rewritten the way people and systems write Mexican addresses, judged by
 * `validateAddress` against the real catalog: right ones (every value right, written with an
 * abbreviation, a title, a type in front, shortened words, other case) must be judged valid,
 * wrong ones (one value of another state, municipality or code, written the same ways) must
 * be caught. The bar: at most 1% of right records judged invalid, at most 1% of wrong
 * ones missed. The forms used here are written out below from the issue and real addresses,
 * not taken from cpmx's tables. The sample is seeded: every run judges the same records.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { random } from '../../bench/workload.js';
import { createClient, type CpmxClient } from '../../src/index.js';
import { validateAddress, type AddressRecord } from '../../src/validate/index.js';
import { buildInto, realCatalogPath, tempDir } from '../helpers.js';
import { realRows, type RawRow } from '../support/real-rows.js';

/** How states are written, by INEGI key (the list, plus ISO 3166-2 codes). */
const STATE_WRITTEN: Record<number, string[]> = {
  1: ['Ags.', 'AGS', 'MX-AGU'],
  2: ['B.C.', 'BC', 'BCN'],
  3: ['B.C.S.', 'BCS'],
  4: ['Camp.', 'CAMP'],
  5: ['Coah.', 'COAH', 'Coahuila'],
  6: ['Col.', 'COL'],
  7: ['Chis.', 'CHIS', 'CHP'],
  8: ['Chih.', 'CHIH'],
  9: ['CDMX', 'D.F.', 'Cd. de México', 'CIUDAD DE MEXICO'],
  10: ['Dgo.', 'DGO'],
  11: ['Gto.', 'GTO'],
  12: ['Gro.', 'GRO'],
  13: ['Hgo.', 'HGO'],
  14: ['Jal.', 'JAL', 'Estado de Jalisco'],
  15: ['Edo. Méx.', 'EDOMEX', 'Edo. de México', 'Méx.'],
  16: ['Mich.', 'MICH', 'Michoacán'],
  17: ['Mor.', 'MOR'],
  18: ['Nay.', 'NAY'],
  19: ['N.L.', 'NL', 'N. L.', 'NLE', 'MX-NLE'],
  20: ['Oax.', 'OAX'],
  21: ['Pue.', 'PUE'],
  22: ['Qro.', 'QRO', 'Querétaro de Arteaga'],
  23: ['Q. Roo', 'Q.ROO', 'QROO'],
  24: ['S.L.P.', 'SLP'],
  25: ['Sin.', 'SIN'],
  26: ['Son.', 'SON'],
  27: ['Tab.', 'TAB'],
  28: ['Tamps.', 'TAMPS', 'Tamp.'],
  29: ['Tlax.', 'TLAX'],
  30: ['Ver.', 'VER', 'Veracruz'],
  31: ['Yuc.', 'YUC'],
  32: ['Zac.', 'ZAC'],
};

const MUNICIPALITY_TITLES = ['Alcaldía', 'Alc.', 'Delegación', 'Del.', 'Municipio de', 'Mpio.', 'Mpio. de', 'Mun.', 'MUNICIPIO'];

/** How settlement types are written in front of names. */
const TYPE_WRITTEN: Record<string, string[]> = {
  Colonia: ['Col.', 'COL', 'Colonia', 'COLONIA'],
  Fraccionamiento: ['Fracc.', 'FRACC', 'Fraccionamiento'],
  'Unidad habitacional': ['U.H.', 'Unidad Hab.', 'UH'],
  Barrio: ['Bo.', 'Barrio'],
  Pueblo: ['Pblo.', 'Pueblo'],
  Ejido: ['Ej.', 'Ejido'],
  Residencial: ['Res.', 'Residencial'],
  'Conjunto habitacional': ['Conj. Hab.', 'Conjunto Habitacional'],
  Rancho: ['Rcho.', 'Rancho'],
  Hacienda: ['Hda.', 'Hacienda'],
  Condominio: ['Cond.', 'Condominio'],
  Ampliación: ['Amp.', 'Ampliación'],
  Ranchería: ['Ranchería'],
  Congregación: ['Congregación'],
};

/** Words people shorten inside names, and how. */
const SHORTENED: [RegExp, string[]][] = [
  [/\bSanta\b/, ['Sta.', 'STA']],
  [/\bSanto\b/, ['Sto.']],
  [/\bSan\b/, ['Sn.']],
  [/\bSección\b/, ['Secc.', 'Sec.', 'SECC']],
  [/\b1a\.?(?= )/, ['Primera', '1ra.', '1ra']],
  [/\bPrimera\b/, ['1a.', '1ra']],
  [/\b2a\.?(?= )/, ['Segunda', '2da.']],
  [/\bSegunda\b/, ['2a.', '2da']],
  [/\bGeneral\b/, ['Gral.']],
  [/\bLicenciado\b/, ['Lic.']],
  [/\bDoctor\b/, ['Dr.']],
  [/\bIngeniero\b/, ['Ing.']],
  [/\bProfesor\b/, ['Prof.']],
  [/\bFrancisco\b/, ['Fco.']],
  [/\bMaría\b/, ['Ma.']],
  [/\bCiudad\b/, ['Cd.']],
  [/ II$/, [' 2', ' 2a.', ' Segunda']],
  [/ III$/, [' 3', ' 3ra.']],
  [/ I$/, [' 1', ' 1a.']],
];

const SAMPLE = 6000;

const dir = tempDir();
let client: CpmxClient;
let rows: RawRow[];
let byCode: Map<string, RawRow[]>;
let byState: Map<string, RawRow[]>;

beforeAll(async () => {
  client = createClient({ token: 'variants-test', dataPath: await buildInto(realCatalogPath(), dir) });
  rows = realRows();
  byCode = new Map();
  byState = new Map();
  for (const row of rows) {
    byCode.set(row.cp, [...(byCode.get(row.cp) ?? []), row]);
    const state = byState.get(row.cEstado);
    if (state) state.push(row);
    else byState.set(row.cEstado, [row]);
  }
});

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const TYPES = new Set(Object.keys(TYPE_WRITTEN).map(fold));
/** A settlement name folded with a leading type word dropped: a plain notion of "the same name". */
const bare = (name: string) => {
  const folded = fold(name);
  const first = folded.split(' ')[0]!;
  return TYPES.has(first) && folded.includes(' ') ? folded.slice(first.length + 1) : folded;
};

type Next = () => number;
const pick = <T>(next: Next, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

/** A value in another case, as exports and forms write it. */
function recased(next: Next, text: string): string {
  const roll = next();
  if (roll < 0.3) return text.toUpperCase();
  if (roll < 0.4) return text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
  if (roll < 0.5) return text.toLowerCase();
  return text;
}

function shorten(next: Next, name: string): string {
  let out = name;
  for (const [full, shorts] of SHORTENED) if (full.test(out) && next() < 0.8) out = out.replace(full, pick(next, shorts));
  return out;
}

function writeState(next: Next, row: RawRow): string {
  return recased(next, pick(next, STATE_WRITTEN[Number(row.cEstado)]!));
}

function writeMunicipality(next: Next, name: string): string {
  const shortened = shorten(next, name);
  return recased(next, next() < 0.7 ? `${pick(next, MUNICIPALITY_TITLES)} ${shortened}` : shortened);
}

function writeSettlement(next: Next, row: RawRow): string {
  const shortened = shorten(next, row.name);
  const types = TYPE_WRITTEN[row.type];
  return recased(next, types && next() < 0.8 ? `${pick(next, types)} ${shortened}` : shortened);
}

/** A right record written as people write it: every field present, most in another form. */
function rightRecord(next: Next, row: RawRow): AddressRecord {
  return {
    cp: row.cp,
    estado: writeState(next, row),
    municipio: writeMunicipality(next, row.municipio),
    asentamiento: writeSettlement(next, row),
    ciudad: row.ciudad && next() < 0.5 ? recased(next, shorten(next, row.ciudad)) : '',
  };
}

/** A record with one wrong value (of another state, municipality or code), or undefined when the row offers none. */
function wrongRecord(next: Next, row: RawRow, field: 'estado' | 'municipio' | 'asentamiento'): AddressRecord | undefined {
  const record = rightRecord(next, row);
  const stateRows = byState.get(row.cEstado)!;
  if (field === 'estado') {
    const other = pick(next, [...byState.keys()].filter((key) => key !== row.cEstado));
    record.estado = recased(next, pick(next, STATE_WRITTEN[Number(other)]!));
    return record;
  }
  if (field === 'municipio') {
    for (let tries = 0; tries < 20; tries++) {
      const other = pick(next, stateRows);
      if (fold(other.municipio) !== fold(row.municipio)) return { ...record, municipio: writeMunicipality(next, other.municipio) };
    }
    return undefined;
  }
  const own = new Set(byCode.get(row.cp)!.map((r) => bare(r.name)));
  // Most often a settlement of a neighbouring code in the same municipality: the hardest case.
  const near = stateRows.filter((r) => r.cMnpio === row.cMnpio && r.cp !== row.cp);
  for (let tries = 0; tries < 20; tries++) {
    const other = pick(next, near.length && next() < 0.7 ? near : stateRows);
    if (!own.has(bare(other.name))) return { ...record, asentamiento: writeSettlement(next, other) };
  }
  return undefined;
}

describe('generated variants of real records', () => {
  it('judges at most 1% of right records invalid', () => {
    const next = random(19);
    const wrongly: { record: AddressRecord; errors: string }[] = [];
    for (let i = 0; i < SAMPLE; i++) {
      const record = rightRecord(next, pick(next, rows));
      const result = validateAddress(client, record);
      if (!result.valid) wrongly.push({ record, errors: result.errors.map((e) => `${e.field}:${e.code_error}`).join(' ') });
    }
    const rate = wrongly.length / SAMPLE;
    expect(rate, `${wrongly.length} of ${SAMPLE} right records judged invalid, e.g. ${JSON.stringify(wrongly.slice(0, 8), null, 1)}`).toBeLessThanOrEqual(0.01);
  });

  for (const field of ['estado', 'municipio', 'asentamiento'] as const) {
    it(`misses at most 1% of records with a wrong ${field}, and names the field`, () => {
      const next = random(field.length * 7919);
      let judged = 0;
      const missed: AddressRecord[] = [];
      while (judged < SAMPLE / 2) {
        const record = wrongRecord(next, pick(next, rows), field);
        if (!record) continue;
        judged++;
        const result = validateAddress(client, record);
        if (!result.errors.some((error) => error.field === field)) missed.push(record);
      }
      expect(missed.length / judged, `${missed.length} of ${judged} missed, e.g. ${JSON.stringify(missed.slice(0, 8), null, 1)}`).toBeLessThanOrEqual(0.01);
    });
  }
});

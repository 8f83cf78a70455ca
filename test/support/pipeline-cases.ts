/**
 * The experiment of issue 33, on the real catalog, reproducible from a seed: records whose
 * settlement, municipality and state name exactly one code, some with the code mistyped (one
 * digit changed or two swapped, landing on a code that exists elsewhere), some with no code,
 * some with the settlement misspelt; right records written with everyday forms; one-line
 * addresses with an accented word right before the code. `measurePipeline` judges them with
 * the validator and `--fix`'s rule and counts what the issue's "Done when" counts. Used by
 * test/validate/validate-pipeline.test.ts and by scripts/measure-pipeline.ts (which also times it).
 */
// The bench's seeded generator (mulberry32): the same cases for a seed on every machine.
import { random as seeded } from '../../bench/workload.js';
import type { CpmxClient } from '../../src/client/client.js';
import type { Catalog } from '../../src/core/catalog.js';
import { STATE_FORMS } from '../../src/core/name-forms.js';
import { foldForMatch } from '../../src/core/names.js';
import { placeFinderOf } from '../../src/parse/places.js';
import { validatorFor } from '../../src/validate/address.js';
import { parseAddress } from '../../src/validate/parse.js';

export type Kind = 'mistyped' | 'missing' | 'misspelt' | 'right';

export interface PipelineCase {
  kind: Kind;
  cp: string;
  asentamiento: string;
  municipio: string;
  estado: string;
  /** What the record should say. */
  rightCp: string;
  rightSettlement: string;
}

interface Place {
  code: number;
  settlement: string;
  municipio: string;
  estado: string;
}

/** A place whose settlement, municipality and state name exactly its code. */
function namedPlace(catalog: Catalog, random: () => number, minimumName = 0): Place {
  const finder = placeFinderOf(catalog);
  const codes = catalog.postalCodes().length;
  for (;;) {
    const code = Math.floor(random() * codes);
    const start = catalog.settlementStartOf(code);
    const settlement = catalog.settlementName(start + Math.floor(random() * (catalog.settlementEndOf(code) - start)));
    if (settlement.length < minimumName) continue;
    const place = { code, settlement, municipio: catalog.municipalityOf(code), estado: catalog.stateOf(code) };
    const named = finder.codesOfRecord(place.settlement, place.municipio, place.estado);
    if (named.length === 1 && named[0] === code) return place;
  }
}

/** The codes one digit changed or two digits swapped away from `cp` that the catalog has. */
export function mistypings(catalog: Catalog, cp: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i < 5; i++) {
    for (let d = 0; d <= 9; d++) found.add(`${cp.slice(0, i)}${d}${cp.slice(i + 1)}`);
    for (let j = i + 1; j < 5; j++) {
      const digits = [...cp];
      [digits[i], digits[j]] = [digits[j]!, digits[i]!];
      found.add(digits.join(''));
    }
  }
  found.delete(cp);
  return [...found].filter((code) => catalog.codeIndex(code) >= 0);
}

/** One letter of the middle of a name changed to another, so that the code has no settlement folded alike. */
function misspell(catalog: Catalog, code: number, name: string, random: () => number): string | undefined {
  const folded = new Set<string>();
  for (let s = catalog.settlementStartOf(code); s < catalog.settlementEndOf(code); s++) folded.add(foldForMatch(catalog.settlementName(s)));
  for (let attempt = 0; attempt < 10; attempt++) {
    const at = 2 + Math.floor(random() * (name.length - 4));
    if (!/\p{L}/u.test(name[at]!)) continue;
    const letter = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)]!;
    const written = `${name.slice(0, at)}${name[at] === name[at]!.toUpperCase() ? letter.toUpperCase() : letter}${name.slice(at + 1)}`;
    if (!folded.has(foldForMatch(written))) return written;
  }
  return undefined;
}

/** `count` cases: 35% mistyped codes, 21% missing codes, 20% misspelt settlements, the rest right. */
export function pipelineCases(catalog: Catalog, count: number, seed: number): PipelineCase[] {
  const random = seeded(seed);
  const cases: PipelineCase[] = [];
  while (cases.length < count) {
    const share = random();
    const kind: Kind = share < 0.35 ? 'mistyped' : share < 0.56 ? 'missing' : share < 0.76 ? 'misspelt' : 'right';
    const place = namedPlace(catalog, random, kind === 'misspelt' ? 8 : 0);
    const rightCp = catalog.postalCode(place.code);
    const base = { kind, cp: rightCp, asentamiento: place.settlement, municipio: place.municipio, estado: place.estado, rightCp, rightSettlement: place.settlement };
    if (kind === 'mistyped') {
      const wrong = mistypings(catalog, rightCp);
      if (wrong.length === 0) continue;
      base.cp = wrong[Math.floor(random() * wrong.length)]!;
    } else if (kind === 'missing') base.cp = '';
    else if (kind === 'misspelt') {
      const written = misspell(catalog, place.code, place.settlement, random);
      if (written === undefined) continue;
      base.asentamiento = written;
    }
    cases.push(base);
  }
  return cases;
}

export interface PipelineFigures {
  records: Record<Kind, number>;
  /** Right settlement, municipality or state values that --fix rewrote. */
  rightNamesRewritten: number;
  /** Records --fix left invalid with a field changed. */
  invalidWithChanges: number;
  /** Records whose result suggests their right code, by kind. */
  rightCodeSuggested: Record<Kind, number>;
  /** Misspelt settlements that --fix restored (the record fixed with its right settlement). */
  restored: number;
  /** Records --fix wrote with their right code (mistyped and missing). */
  codeFilled: number;
  /** Right records judged invalid. */
  rightInvalid: number;
}

/** Judges every case as `cpmx validate --fix` does, and counts. */
export function measurePipeline(client: CpmxClient, cases: readonly PipelineCase[]): PipelineFigures {
  const validator = validatorFor(client);
  const zero = (): Record<Kind, number> => ({ mistyped: 0, missing: 0, misspelt: 0, right: 0 });
  const figures: PipelineFigures = { records: zero(), rightNamesRewritten: 0, invalidWithChanges: 0, rightCodeSuggested: zero(), restored: 0, codeFilled: 0, rightInvalid: 0 };
  for (const record of cases) {
    figures.records[record.kind]++;
    const result = validator.validateFields(record.cp, record.asentamiento, record.municipio, record.estado, '');
    const fix = validator.fix(record.cp, record.asentamiento, record.municipio, record.estado, '', result);
    if (record.kind === 'right' && !result.valid) figures.rightInvalid++;
    if (result.suggestions.cp === record.rightCp) figures.rightCodeSuggested[record.kind]++;
    if (fix.status === 'invalid' && Object.keys(fix.changes).length) figures.invalidWithChanges++;
    if (fix.changes.estado !== undefined || fix.changes.municipio !== undefined) figures.rightNamesRewritten++;
    else if (record.kind !== 'misspelt' && fix.changes.asentamiento !== undefined) figures.rightNamesRewritten++;
    if (record.kind === 'misspelt' && fix.status === 'fixed' && fix.changes.asentamiento === record.rightSettlement) figures.restored++;
    if ((record.kind === 'mistyped' || record.kind === 'missing') && fix.status === 'fixed' && fix.changes.cp === record.rightCp) figures.codeFilled++;
  }
  return figures;
}

/** Forms people write a settlement's type in front of its name (test/fixtures/settlement-type-forms.csv), by type. */
export function typeForms(csv: string): Map<string, string[]> {
  const forms = new Map<string, string[]>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [type, form] = line.split(',') as [string, string];
    forms.set(type, [...(forms.get(type) ?? []), form]);
  }
  return forms;
}

/** Right records written as people write them: the type's short form in front of the settlement, the state abbreviated. */
export function everydayRecords(catalog: Catalog, forms: Map<string, string[]>, count: number, seed: number): PipelineCase[] {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const codes = catalog.postalCodes().length;
  const records: PipelineCase[] = [];
  while (records.length < count) {
    const code = Math.floor(random() * codes);
    const start = catalog.settlementStartOf(code);
    const settlement = start + Math.floor(random() * (catalog.settlementEndOf(code) - start));
    const type = catalog.settlementType(settlement);
    const name = catalog.settlementName(settlement);
    const form = pick(forms.get(type) ?? [type]);
    const estado = catalog.stateOf(code);
    const state = STATE_FORMS.find((entry) => foldForMatch(entry.name) === foldForMatch(estado));
    const rightCp = catalog.postalCode(code);
    records.push({
      kind: 'right',
      cp: rightCp,
      asentamiento: `${form} ${name}`,
      municipio: catalog.municipalityOf(code),
      estado: state && random() < 0.7 ? pick([...state.forms, state.iso]) : estado,
      rightCp,
      rightSettlement: name,
    });
  }
  return records;
}

/** One-line addresses whose code follows a word that ends in an accented vowel and n (León, Mazatlán, Michoacán). */
export function accentedLines(catalog: Catalog, count: number, seed: number): { line: string; cp: string }[] {
  const random = seeded(seed);
  const accented = /[áéíóú]n$/iu;
  const codes: number[] = [];
  for (let code = 0; code < catalog.postalCodes().length; code++) {
    if (accented.test(catalog.municipalityOf(code)) || accented.test(catalog.stateOf(code))) codes.push(code);
  }
  const lines: { line: string; cp: string }[] = [];
  while (lines.length < count) {
    const code = codes[Math.floor(random() * codes.length)]!;
    const cp = catalog.postalCode(code);
    const start = catalog.settlementStartOf(code);
    const settlement = catalog.settlementName(start + Math.floor(random() * (catalog.settlementEndOf(code) - start)));
    const municipio = catalog.municipalityOf(code);
    const estado = catalog.stateOf(code);
    const forms = [`${settlement}, ${municipio}, ${estado} ${cp}`, `Col. ${settlement}, ${municipio}, ${estado} ${cp}`, `Calle Hidalgo 12, ${settlement}, ${estado} ${cp}`];
    if (accented.test(municipio)) forms.push(`Col. ${settlement}, ${municipio} ${cp}`, `${municipio} ${cp}`);
    lines.push({ line: forms[Math.floor(random() * forms.length)]!, cp });
  }
  return lines;
}

/** How many of the lines lost their written code (parsed with another code, or none). */
export function codesLost(client: CpmxClient, lines: readonly { line: string; cp: string }[]): { line: string; cp: string; got: string | null }[] {
  const lost: { line: string; cp: string; got: string | null }[] = [];
  for (const { line, cp } of lines) {
    const parsed = parseAddress(client, line);
    if (parsed.cp !== cp) lost.push({ line, cp, got: parsed.cp });
  }
  return lost;
}

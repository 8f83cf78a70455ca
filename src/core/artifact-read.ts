/**
 * An artifact's file back to its model (format.ts), every table copied out of the file: for
 * tools and tests that look at or rewrite an artifact's parts. Lookups never use it: they read
 * the file in place (catalog.ts).
 */
import { compactUints, toStringTable, type Artifact, type StringTable, type UintArray } from './format.js';
import { COLUMNS, STRING_TABLES, aligned, openEnvelope, readPayload, utf8Reader, type ColumnName, type Section } from './layout.js';

/** The model an artifact's bytes hold, unchecked beyond what reading them needs; throws an Error when they are no artifact of this format. */
export function readArtifact(bytes: Uint8Array): Artifact {
  if (!openEnvelope(bytes)) throw new Error('not a cpmx artifact of this format');
  const { header, sections } = readPayload(aligned(bytes));
  const column = (name: ColumnName): UintArray | undefined => sections[STRING_TABLES.length * 3 + COLUMNS.indexOf(name)]!.column?.slice();
  const strings = Object.fromEntries(STRING_TABLES.map((name, i) => [name, stringTable(sections.slice(i * 3, i * 3 + 3))])) as Artifact['strings'];
  const ranks = column('settlementRanks');
  const history = column('history');
  return {
    header,
    strings,
    stateKeys: column('stateKeys')!,
    municipalityState: column('municipalityState')!,
    municipalityKey: column('municipalityKey')!,
    municipalityName: column('municipalityName')!,
    trie: column('trie') as Uint16Array,
    codeMunicipality: column('codeMunicipality')!,
    codeCity: column('codeCity')!,
    codeSettlements: differences(column('settlementStart')!),
    settlements: column('settlements') as Uint8Array,
    ...(ranks ? { settlementRanks: ranks } : {}),
    stateCityCounts: differences(column('stateCityStart')!),
    stateCities: column('stateCities')!,
    ...(history ? { history: history as Uint8Array } : {}),
  };
}

/** Counts from their running sums. */
function differences(sums: UintArray): UintArray {
  return compactUints(Array.from({ length: Math.max(0, sums.length - 1) }, (_, i) => sums[i + 1]! - sums[i]!));
}

/** A table's entries decoded in order, as the compiler stores a table (Latin-1 bytes when every character fits). */
function stringTable([bytes, lengths]: Section[]): StringTable {
  const read = utf8Reader(bytes!.column as Uint8Array);
  const entries: string[] = [];
  for (let i = 0, at = 0; i < lengths!.column!.length; at += lengths!.column![i]!, i++) entries.push(read(at, at + lengths!.column![i]!));
  return toStringTable(entries);
}

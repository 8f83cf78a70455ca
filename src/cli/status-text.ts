/**
 * `cpmx status` as a person reads it on a terminal: the artifact, the catalog's date and age,
 * its counts and sources, corrections and history, one labelled line each. Scripts get the
 * JSON (`--json`, or stdout not a terminal); this text is for reading, not parsing.
 */
import type { geoStatus } from '../client/geo-status.js';
import type { ArtifactHeader, CatalogAge, SourceInfo } from '../core/format.js';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * Text from the artifact as a terminal may show it: control and format characters (ESC, BEL,
 * bidi overrides: a crafted note or file name could move the cursor or reorder the line) are
 * written as \u escapes instead.
 */
const printable = (text: string) => text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const day = (date: string) => date.slice(0, 10);

function source(info: SourceInfo): string {
  const dated = info.date ? `dated ${day(info.date)} by its ${info.dateFrom === 'zip-entry' ? 'zip entry' : 'modification time'}` : 'undated';
  return `${info.file}, ${count(info.bytes)} bytes, ${info.encoding}, ${dated}; sha256 ${info.sha256}`;
}

/** The status report's lines, without a trailing newline. */
export function statusText(artifact: string, header: ArtifactHeader, age: CatalogAge, geodata: ReturnType<typeof geoStatus>): string {
  const lines: [string, string][] = [
    ['artifact', artifact],
    ['catalog', age.catalogDate === null ? 'date unknown (not recorded in this artifact)' : `dated ${day(age.catalogDate)}, ${count(age.catalogAgeDays ?? 0)} days old`],
    ['holds', `${count(header.codes)} postal codes, ${count(header.rows)} settlements, ${count(header.municipalities)} municipalities, ${count(header.states)} states`],
    ['source', source(header.source)],
    ...(header.sources ?? []).map((one): [string, string] => ['  from', source(one)]),
    ['built', header.builtAt ?? 'time not recorded'],
    ['format', `${header.format} version ${header.version}`],
    ['terms', header.notice],
  ];
  const { corrections, history } = header;
  if (corrections) {
    lines.push(['corrections', `${count(corrections.applied.length)} applied from ${corrections.file}${corrections.dropped?.length ? `, ${count(corrections.dropped.length)} dropped (no longer apply)` : ''}`]);
    for (const row of corrections.applied) lines.push(['', `line ${row.line}: ${row.action} ${row.cp}${row.nota ? ` (${row.nota})` : ''}`]);
    for (const row of corrections.dropped ?? []) lines.push(['  dropped', `line ${row.line}: ${row.action} ${row.cp}: ${row.reason}`]);
  }
  if (history) {
    lines.push(['history', `${count(history.retired)} codes retired, ${count(history.added)} added, against ${history.previous.map((one) => `${one.file} (${day(one.date)})`).join(', ')}`]);
  }
  lines.push([
    'geodata',
    'missing' in geodata ? `none (${geodata.missing})` : `${geodata.file}, version ${geodata.version ?? 'unknown'}: ${count(geodata.codes)} codes in ${count(geodata.states.length)} states`,
  ]);
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  return lines.map(([label, text]) => `${label.padEnd(width)}${printable(text)}`).join('\n');
}

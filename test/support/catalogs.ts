/**
 * Catalog variants for the build's tests, made at run time from the fixture: larger synthetic
 * catalogs, zips of them, per-state splits, and the artifact's content without its header
 * (what the lookups answer from), to compare builds by what they answer.
 */
import { readFileSync } from 'node:fs';
import { zipSync } from 'fflate';
import { readArtifact } from '../../src/core/catalog.js';
import { FIXTURE } from '../helpers.js';

export const fixtureBytes = readFileSync(FIXTURE);
/** The fixture's lines (CRLF removed): the notice, the header, then 22 rows. */
export const fixtureLines = fixtureBytes.toString('latin1').replace(/\r\n$/, '').split('\r\n');
export const [NOTICE, HEADER] = fixtureLines as [string, string];
export const ROWS = fixtureLines.slice(2);

/** A catalog text of `count` rows: the fixture's rows in turn, each settlement name numbered so that all differ. */
export function syntheticCatalog(count: number, rows: readonly string[] = ROWS): string {
  const lines = [NOTICE, HEADER];
  for (let i = 0; i < count; i++) {
    const fields = rows[i % rows.length]!.split('|');
    fields[1] = `${fields[1]!.trim()} ${i}`;
    lines.push(fields.join('|'));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A zip holding `members` (name → Latin-1 text or bytes), dated `mtime` (local time, as zips record it). */
export function zipOf(members: Record<string, string | Uint8Array>, mtime = new Date(2026, 0, 15, 10, 30)): Buffer {
  const files = Object.fromEntries(Object.entries(members).map(([name, content]) => [name, typeof content === 'string' ? new Uint8Array(Buffer.from(content, 'latin1')) : content]));
  return Buffer.from(zipSync(files, { mtime }));
}

/** Where the only member's compressed data lies in a zip made by zipOf. */
export function memberDataRange(zip: Buffer): { start: number; end: number } {
  const start = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  return { start, end: start + zip.readUInt32LE(18) };
}

/** The artifact's every table, without the header: equal for builds that answer alike. */
export function contentOf(artifactBytes: Uint8Array): unknown {
  const { header: _header, ...content } = readArtifact(artifactBytes);
  return content;
}

/** The fixture's rows of one state (`c_estado`, two digits), with the notice and header. */
export function stateFile(stateKey: string, rows: readonly string[] = ROWS): string {
  const column = HEADER.split('|').indexOf('c_estado');
  return `${[NOTICE, HEADER, ...rows.filter((row) => row.split('|')[column] === stateKey)].join('\r\n')}\r\n`;
}

/** A deterministic generator of numbers in [0, 1), for sampling without flakiness: the bench's own. */
export { random as seeded } from '../../bench/workload.js';

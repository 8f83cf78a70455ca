/**
 * Several catalog files built into one (the site serves the catalog per state as well as
 * whole): a postal code given by more than one file must be given identically by each, row
 * for row, or the build is refused, naming both files, their lines and the first difference.
 * A code given identically again (overlapping downloads) is kept once.
 */
import { CatalogError } from './errors.js';
import type { CatalogRow } from './reader.js';

interface CodeRows {
  where: string;
  lines: number[];
  /** Each row's answered facts, in file order. */
  rows: string[];
}

export class SourceMerge {
  /** Each code's rows in the first source that gave it; kept only when there are several sources. */
  private readonly first = new Map<string, CodeRows & { source: number }>();
  /** The current source's rows of codes an earlier source gave. */
  private repeated = new Map<string, CodeRows>();
  private source = -1;
  private where = '';

  constructor(private readonly several: boolean) {}

  /** The rows that follow come from the next source, `where`. */
  begin(where: string): void {
    this.source++;
    this.where = where;
    this.repeated = new Map();
  }

  /** True when the row is to be added; false when it belongs to a code an earlier source gave (checked by `end`). */
  accept(row: CatalogRow): boolean {
    if (!this.several) return true;
    const facts = rowFacts(row);
    const first = this.first.get(row.postalCode);
    if (!first) {
      this.first.set(row.postalCode, { source: this.source, where: this.where, lines: [row.line], rows: [facts] });
      return true;
    }
    if (first.source === this.source) {
      first.lines.push(row.line);
      first.rows.push(facts);
      return true;
    }
    let again = this.repeated.get(row.postalCode);
    if (!again) this.repeated.set(row.postalCode, (again = { where: this.where, lines: [], rows: [] }));
    again.lines.push(row.line);
    again.rows.push(facts);
    return false;
  }

  /** Refuses the current source if it disagrees with an earlier one about any code. */
  end(): void {
    for (const [postalCode, again] of this.repeated) {
      const first = this.first.get(postalCode)!;
      const difference = firstDifference(first, again);
      if (difference) {
        throw new CatalogError(
          again.where,
          `postal code ${postalCode} is also in ${first.where} (from line ${first.lines[0]}), and the two disagree: ${difference.text}`,
          difference.line,
        );
      }
    }
  }
}

const SEPARATOR = '\u0000';

function rowFacts(row: CatalogRow): string {
  return [row.settlement, row.settlementType, row.municipality, row.state, row.city, row.stateKey, row.municipalityKey].join(SEPARATOR);
}

function describe(facts: string): string {
  const [settlement, type, municipality, state, city, stateKey, municipalityKey] = facts.split(SEPARATOR);
  const key = `${stateKey!.padStart(2, '0')}/${municipalityKey!.padStart(3, '0')}`;
  return `"${settlement}" (${type}), ${municipality} (${key}), ${state}${city ? `, city "${city}"` : ', no city'}`;
}

/** The first row where the two differ, said both ways, with the line of it here. */
function firstDifference(first: CodeRows, again: CodeRows): { text: string; line: number } | undefined {
  const count = Math.min(first.rows.length, again.rows.length);
  for (let i = 0; i < count; i++) {
    if (first.rows[i] !== again.rows[i]) {
      return { text: `its settlement ${i + 1} is ${describe(first.rows[i]!)} there (line ${first.lines[i]}), but ${describe(again.rows[i]!)} here`, line: again.lines[i]! };
    }
  }
  if (first.rows.length === again.rows.length) return undefined;
  return { text: `it has ${first.rows.length} settlements there and ${again.rows.length} here`, line: again.lines[0]! };
}

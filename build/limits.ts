/** The bounds on what a build reads (a module of its own: the CLI's help shows them without loading the reader). */
import { MAX_NAME_CHARS } from '../src/core/names.js';

/** Bounds on what a build reads; `cpmx build` has an option to raise each size bound. */
export interface ReadLimits {
  /** The largest source file, and the largest catalog text inside a zip. */
  maxBytes: number;
  /** The longest line, in bytes, line ending excluded. */
  maxLineBytes: number;
  /** The most data rows, all sources together. */
  maxRows: number;
  /** How long to wait for a writer when the source is a FIFO. */
  openTimeoutMs: number;
}

/**
 * Far above the official catalog (a 2 MB zip of 14.3 MB of text, 145,092 rows, lines of at
 * most 243 bytes) and far below what would exhaust a machine's memory.
 */
export const DEFAULT_LIMITS: Readonly<ReadLimits> = {
  maxBytes: 256 * 1024 * 1024,
  maxLineBytes: 4096,
  maxRows: 1_000_000,
  openTimeoutMs: 60_000,
};

/**
 * Bounds on the catalog's shape, so that no answer is large however the catalog was made:
 * within the size bounds above, one code could hold a million settlements and one answer
 * hundreds of megabytes. Each is several times the official catalog's own maximum (in
 * parentheses); with them the largest answer is a few megabytes.
 */
export const SHAPE_LIMITS = {
  /** Characters of a name: settlement, its type, municipality, state, city (57). */
  maxNameChars: MAX_NAME_CHARS,
  /** Settlements of one postal code (349). */
  maxSettlementsPerCode: 2_000,
  /** Settlements of the municipalities of one name, every state's together: what a lookup by municipality name lists (2,276). */
  maxSettlementsPerMunicipalityName: 10_000,
  /** Distinct city names of one state (70). */
  maxCitiesPerState: 1_000,
} as const;

/** The bounds on what a build reads (a module of its own: the CLI's help shows them without loading the reader). */

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

/** How the report writes numbers, shared by RESULTS.md and the chart so they read alike. */

export const MB = 1024 * 1024;

export function format(value: number, unit: string): string {
  // Thresholds sit just below the powers of ten, so 999.6 ns reads "1.0 µs", not "1000 ns".
  if (unit === 'ns' && value >= 999_500) return `${(value / 1_000_000).toFixed(2)} ms`;
  if (unit === 'ns' && value >= 999.5) return `${(value / 1000).toFixed(value >= 9_950 ? 0 : 1)} µs`;
  if (unit === 'ms') return `${value.toFixed(value >= 100 ? 0 : 1)} ms`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${unit}`;
}

/** `value` over `base` as "2.3×", or "95×" from ten up. */
export function ratio(value: number, base: number): string {
  return value / base >= 10 ? `${Math.round(value / base)}×` : `${(value / base).toFixed(1)}×`;
}

/** Bytes as megabytes with `digits` decimals, e.g. "4.3 MB". */
export function megabytes(bytes: number, digits: number): string {
  return `${(bytes / MB).toFixed(digits)} MB`;
}

/** Bytes as kilobytes (1,024 bytes) with one decimal, e.g. "12.0 KB". */
export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** A count the English way, e.g. "1,000,000". */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** A share as a whole percentage, e.g. 0.83 → "83%". */
export function percent(share: number): string {
  return `${Math.round(100 * share)}%`;
}

/** The lowest and highest of `shares` as whole percentages: `[low, high]`, e.g. [0.7, 1.05] → [70, 105]. */
export function percentRange(shares: readonly number[]): [low: number, high: number] {
  return [Math.round(100 * Math.min(...shares)), Math.round(100 * Math.max(...shares))];
}

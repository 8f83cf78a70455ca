/** Durations and shares as `cpmx serve --refresh-every 6h --max-loss 1%` takes them. */
import { UsageError } from './command.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The shortest interval: one second (a local mirror, a test); the longest a timer can wait (about 24.8 days) is capped at 24 days. */
export const MIN_INTERVAL_MS = 1000;
export const MAX_INTERVAL_MS = 24 * UNIT_MS.d!;

/** A duration such as `30m`, `6h`, `1d` or `1h30m` (units s, m, h, d), as milliseconds, within the interval's bounds. */
export function intervalOption(value: string, name: string): number {
  const text = value.trim().toLowerCase();
  if (!/^(\d+[smhd])+$/.test(text)) {
    throw new UsageError(`${name} takes a duration: a number and a unit, s, m, h or d (30m, 6h, 1d, 1h30m), got "${value}"`);
  }
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhd])/g)) ms += Number(amount) * UNIT_MS[unit!]!;
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS) throw new UsageError(`${name} must be from 1s to 24d, got "${value}"`);
  return ms;
}

/** A share from 0 to 1, given as a fraction (`0.05`) or a percentage (`5%`). */
export function shareOption(value: string, name: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(value);
  const share = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!(share >= 0 && share <= 1)) throw new UsageError(`${name} takes a share of the codes served, from 0 to 1 or 0% to 100% (0.01, 5%), got "${value}"`);
  return share;
}

/**
 * The parameter checks the method table's rows are made of: a code or a code's prefix (101,
 * 102, 104), a blank value, a `limit`. No table here, so the table and the path parser can
 * both import them without a cycle.
 */
import type { ErrorCode } from './contract.js';

/** The largest `limit` of `search_cp_advanced`. */
export const MAX_LIMIT = 100_000;

/** Missing, empty or only white space. */
export function blank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** Whether `segment` passes the checks of a postal code (5 ASCII digits): no 101, 102 or 104. */
export function isPostalCode(segment: string): boolean {
  return checkCode(segment, 5) === undefined;
}

/** 101, 102 or 104 for a code (`shortest` 5) or a code's prefix (`shortest` 1); undefined when fine. */
export function checkCode(segment: string | undefined, shortest: number): ErrorCode | undefined {
  if (!segment) return 101;
  const digits = asciiDigits(segment);
  if (digits >= shortest && digits <= 5) return undefined;
  const length = codePointLength(segment);
  return (shortest === 5 ? length !== 5 : length > 5) ? 102 : 104;
}

/** `limit` as a number (undefined when absent), or 117 when it is not a whole number from 1 to MAX_LIMIT. */
export function checkLimit(limit: string | undefined): number | undefined | 117 {
  if (!limit) return undefined;
  const value = /^[0-9]+$/.test(limit) ? Number(limit) : 0;
  return value >= 1 && value <= MAX_LIMIT ? value : 117;
}

/** A state's key: 1 or 2 ASCII digits. */
export function isStateKey(segment: string): boolean {
  return /^[0-9]{1,2}$/.test(segment);
}

/** The length of `text` when it is all ASCII digits, else -1. */
function asciiDigits(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return text.length;
}

/** Characters as the contract counts them: code points, so a surrogate pair is one. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

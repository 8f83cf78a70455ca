/**
 * Passwords: scrypt from node:crypto with a random salt per account, compared in constant
 * time. The stored form names its parameters (`scrypt$N$r$p$salt$hash`, base64url), so they
 * can be raised later without breaking the hashes already stored. A password is never
 * stored, logged or echoed; only this module sees it, and only to hash it.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * OWASP's minimum for scrypt (N = 2^17, r = 8, p = 1): 2^17 × 8 × 128 bytes = 128 MiB and
 * about 0.4 s of one core per hash on the test machines (4× N = 2^15, measured side by
 * side). Hashes made with a lower cost (2^15 before) are replaced at the next log-in
 * (`weakerThanNow`).
 */
const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN = 10;
/** Longer inputs are refused before hashing (a megabyte "password" would be a cheap way to tire the server). */
export const PASSWORD_MAX = 256;

/**
 * A password's length as sign-up, log-in and `cpmx panel create-admin` all count it: code
 * points of its NFC form, the text that is hashed (UTF-16 units would count an emoji twice, and
 * a password accepted at sign-up could then never log in).
 */
export function passwordLength(password: string): number {
  let length = 0;
  for (const _ of password.normalize('NFC')) length++;
  return length;
}

/** Whether a password is no longer than any account's can be (log-in checks nothing longer). */
export const passwordFits = (password: string): boolean => passwordLength(password) <= PASSWORD_MAX;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: node's default (32 MiB) is below what N = 2^17, r = 8 needs (128 MiB).
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * What an email with no account is checked against, so that the answer takes as long: a hash
 * at today's parameters of nothing at all (random salt and key), so checking it costs the one
 * scrypt a real account's check costs. It is made without hashing anything: a decoy that was
 * hashed cost the first unknown email of each process a second scrypt (twice the time, which
 * also told that email apart).
 */
let decoy: string | undefined;
const decoyHash = () => (decoy ??= `scrypt$${N}$${R}$${P}$${randomBytes(SALT_BYTES).toString('base64url')}$${randomBytes(KEY_BYTES).toString('base64url')}`);

/** Whether `password` is the one `stored` was made from; `stored` undefined or null is checked against a decoy (and is false). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const real = typeof stored === 'string';
  const parts = (real ? stored : decoyHash()).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N: n, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected) && real;
}

/** Whether a stored hash was made with less work than hashPassword does now: log-in then stores a new one. */
export function weakerThanNow(stored: string): boolean {
  const [kind, n, r, p] = stored.split('$');
  return kind !== 'scrypt' || Number(n) < N || Number(r) < R || Number(p) < P;
}

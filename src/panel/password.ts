/**
 * Passwords: scrypt from node:crypto with a random salt per account, compared in constant
 * time. The stored form names its parameters (`scrypt$N$r$p$salt$hash`, base64url), so they
 * can be raised later without breaking the hashes already stored. A password is never
 * stored, logged or echoed; only this module sees it, and only to hash it.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** 2^15 × 8 × 128 bytes = 32 MiB and about 0.1 s of one core per hash on the test machines. */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN = 10;
/** Longer inputs are refused before hashing (a megabyte "password" would be a cheap way to tire the server). */
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: node's default (32 MiB) is exactly what N = 2^15, r = 8 needs, and refuses it.
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of nothing anyone knows, checked when the email has no account, so that the answer takes as long. */
let decoy: Promise<string> | undefined;

/** Whether `password` is the one `stored` was made from; `stored` undefined or null is checked against a decoy (and is false). */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const real = typeof stored === 'string';
  const parts = (real ? stored : await (decoy ??= hashPassword(randomBytes(18).toString('base64url')))).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const expected = Buffer.from(parts[5]!, 'base64url');
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N: n, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected) && real;
}

/**
 * What a log-in costs in scrypt work: the check of an email with no account is as much work
 * as a real account's (one scrypt at today's parameters, not two), a right password with a
 * current hash is one scrypt and no rehash, and only a hash made with less work is made again.
 * The calls are counted on node:crypto's real scrypt (wrapped, still run), not imitated.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
const realScrypt = crypto.scrypt;
let calls: { N?: number | undefined; r?: number | undefined; p?: number | undefined }[] = [];

beforeEach(() => {
  calls = [];
  crypto.scrypt = ((...args: Parameters<typeof realScrypt>) => {
    const options = typeof args[3] === 'object' ? args[3] : {};
    calls.push({ N: options.N, r: options.r, p: options.p });
    return (realScrypt as (...a: unknown[]) => void)(...args);
  }) as typeof realScrypt;
  syncBuiltinESMExports();
});

afterEach(() => {
  crypto.scrypt = realScrypt;
  syncBuiltinESMExports();
});

/** password.ts as a server process has it at start (nothing cached yet). */
async function fresh(): Promise<typeof import('../../src/panel/password.js')> {
  vi.resetModules();
  return import('../../src/panel/password.js');
}

const TODAY = { N: 2 ** 17, r: 8, p: 1 };

describe('scrypt work per log-in', () => {
  it('an email with no account costs one scrypt at today’s parameters, the first time as every time', async () => {
    const password = await fresh();
    for (let i = 0; i < 2; i++) {
      calls = [];
      expect(await password.verifyPassword('una contraseña larga', undefined)).toBe(false);
      expect(calls).toEqual([TODAY]);
    }
    // A password too long to be anyone's is checked as the route does: '' against the decoy.
    calls = [];
    expect(await password.verifyPassword('', null)).toBe(false);
    expect(calls).toEqual([TODAY]);
  });

  it('a right or wrong password against a current hash costs one scrypt, and asks for no rehash', async () => {
    const password = await fresh();
    const stored = await password.hashPassword('una contraseña larga');
    expect(calls).toEqual([TODAY]);
    calls = [];
    expect(await password.verifyPassword('una contraseña larga', stored)).toBe(true);
    expect(await password.verifyPassword('otra contraseña larga', stored)).toBe(false);
    expect(calls).toEqual([TODAY, TODAY]);
    expect(password.weakerThanNow(stored)).toBe(false);
  });

  it('asks for a rehash only of a hash made with less work', async () => {
    const { weakerThanNow } = await fresh();
    const salt = 'AAAAAAAAAAAAAAAAAAAAAA';
    const key = 'A'.repeat(43);
    expect(weakerThanNow(`scrypt$32768$8$1$${salt}$${key}`)).toBe(true);
    // OWASP lists N = 2^16, p = 2 as an equal alternative, but each lane holds half the memory: made again.
    expect(weakerThanNow(`scrypt$65536$8$2$${salt}$${key}`)).toBe(true);
    expect(weakerThanNow(`scrypt$131072$4$1$${salt}$${key}`)).toBe(true);
    expect(weakerThanNow(`bcrypt$131072$8$1$${salt}$${key}`)).toBe(true);
    expect(weakerThanNow(`scrypt$131072$8$1$${salt}$${key}`)).toBe(false);
    expect(weakerThanNow(`scrypt$262144$8$1$${salt}$${key}`)).toBe(false);
  });
});

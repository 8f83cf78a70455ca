/**
 * Sessions, cookies and CSRF tokens.
 *
 * Two cookies, both HttpOnly, SameSite=Strict, Path=/panel, Secure over HTTPS:
 *   cpmx_sesion  a logged-in session: 256 random bits, made at log-in (never before), kept in
 *                the registry only as its SHA-256, ended at log-out, by a new log-in in the same
 *                browser, when it expires, or when the account is disabled.
 *   cpmx_previa  before log-in: 256 random bits that the log-in and sign-up forms are bound
 *                to; it is never a session and is dropped at log-in.
 * Two cookies rather than one so that a page that sets the second (a visit from a link on
 * another site, which SameSite=Strict sends without cookies) never overwrites a session.
 *
 * A form's CSRF token is an HMAC, under a secret kept in the registry (the same for every
 * worker and server), of the cookie the form is bound to: a page of another site can read
 * neither, so it cannot post a form the panel accepts.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'cpmx_sesion';
export const PRE_COOKIE = 'cpmx_previa';

/** How long a session lasts after log-in. */
export const SESSION_MS = 12 * 3600 * 1000;

const ID = /^[A-Za-z0-9_-]{43}$/;

/** A new cookie value: 256 random bits. */
export function newId(): string {
  return randomBytes(32).toString('base64url');
}

/** What the registry keeps of a session cookie. */
export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The panel's cookies from a Cookie header; values not shaped like ours are ignored. */
export function readCookies(header: string | undefined): { session?: string | undefined; pre?: string | undefined } {
  const found: { session?: string; pre?: string } = {};
  if (!header) return found;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (!ID.test(value)) continue;
    if (name === SESSION_COOKIE) found.session ??= value;
    else if (name === PRE_COOKIE) found.pre ??= value;
  }
  return found;
}

export function setCookie(name: string, value: string, options: { secure: boolean; maxAgeS?: number | undefined }): string {
  const age = options.maxAgeS === undefined ? '' : `; Max-Age=${options.maxAgeS}`;
  return `${name}=${value}; Path=/panel; HttpOnly; SameSite=Strict${age}${options.secure ? '; Secure' : ''}`;
}

export function clearCookie(name: string, secure: boolean): string {
  return setCookie(name, '', { secure, maxAgeS: 0 });
}

/** What a form is bound to: the session of a logged-in user, or the cookie before log-in. */
export type Binding = { kind: 'sesion' | 'previa'; id: string };

export function csrfToken(secret: string, binding: Binding): string {
  return createHmac('sha256', secret).update(`${binding.kind}:${binding.id}`).digest('base64url');
}

export function csrfMatches(secret: string, binding: Binding | undefined, given: string | undefined): boolean {
  if (!binding || typeof given !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, binding));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

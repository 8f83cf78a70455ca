/**
 * Sessions, cookies and CSRF tokens.
 *
 * Two cookies, both HttpOnly, SameSite=Strict:
 *   cpmx_sesion  a logged-in session: 256 random bits, made at log-in (never before), kept in
 *                the registry only as its SHA-256, ended at log-out, by a new log-in in the same
 *                browser, when it expires, when the account is disabled or its password changes.
 *   cpmx_previa  before log-in: 256 random bits that the log-in and sign-up forms are bound
 *                to; it is never a session.
 * Two cookies rather than one so that a page that sets the second (a visit from a link on
 * another site, which SameSite=Strict sends without cookies) never overwrites a session.
 *
 * Cookies do not keep ports apart: a page on another port of the same host can set cookies
 * that this one receives (session forcing: the victim works in the attacker's account, or is
 * locked out). So:
 *   - over HTTPS the names carry the `__Host-` prefix (Secure, Path=/, no Domain): a browser
 *     accepts such a cookie only from a secure origin, so no plain-HTTP port can plant one;
 *     cookies without the prefix are not read then;
 *   - on plain HTTP a name sent twice (a planted copy with another Path or Domain beside ours)
 *     is ambiguous: neither copy is used, and the answer clears the name at every path the
 *     request lies under, so the person logs in again in a browser with one cookie. A single
 *     planted cookie over plain HTTP cannot be told from ours: that is why the README says to
 *     serve the panel over HTTPS.
 *
 * A form's CSRF token is an HMAC, under a secret kept in the registry (the same for every
 * worker and server), of the cookie the form is bound to: a page of another site can read
 * neither, so it cannot post a form the panel accepts.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

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

/** A cookie's name as sent over HTTPS (`__Host-` prefixed) or plain HTTP. */
export const cookieName = (name: string, secure: boolean) => (secure ? `__Host-${name}` : name);

export interface PanelCookies {
  session?: string | undefined;
  pre?: string | undefined;
  /** Names (as sent) that came more than once: none of their values is used. */
  ambiguous: string[];
}

/** The panel's cookies from a Cookie header; values not shaped like ours are ignored, and so are names sent twice. */
export function readCookies(header: string | undefined, secure: boolean): PanelCookies {
  const names = { session: cookieName(SESSION_COOKIE, secure), pre: cookieName(PRE_COOKIE, secure) };
  const seen = { session: [] as string[], pre: [] as string[] };
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === names.session) seen.session.push(value);
    else if (name === names.pre) seen.pre.push(value);
  }
  const one = (values: string[]) => (values.length === 1 && ID.test(values[0]!) ? values[0] : undefined);
  return {
    session: one(seen.session),
    pre: one(seen.pre),
    ambiguous: (['session', 'pre'] as const).filter((key) => seen[key].length > 1).map((key) => names[key]),
  };
}

export function setCookie(name: string, value: string, options: { secure: boolean; maxAgeS?: number | undefined }): string {
  const age = options.maxAgeS === undefined ? '' : `; Max-Age=${options.maxAgeS}`;
  return options.secure
    ? `${cookieName(name, true)}=${value}; Path=/; HttpOnly; SameSite=Strict${age}; Secure`
    : `${name}=${value}; Path=/panel; HttpOnly; SameSite=Strict${age}`;
}

export function clearCookie(name: string, secure: boolean): string {
  return setCookie(name, '', { secure, maxAgeS: 0 });
}

/**
 * Set-Cookie values that delete `sentName` wherever a copy sent with a request for `path` can
 * be kept: every path the request's path lies under, host-only and (for a host name) with a
 * Domain, which is where another page of the same host could have put one.
 */
export function clearEverywhere(sentName: string, path: string, hostname: string, secure: boolean): string[] {
  // A `__Host-` cookie can only be kept at Path=/, host-only, and deleted only as Secure.
  if (secure) return [`${sentName}=; Path=/; Max-Age=0; Secure`];
  const paths = new Set<string>(['/']);
  for (let at = path.indexOf('/', 1); at >= 0; at = path.indexOf('/', at + 1)) paths.add(path.slice(0, at)).add(path.slice(0, at + 1));
  paths.add(path);
  const domains = ['', ...(isIP(hostname) === 0 && hostname !== '' ? [`; Domain=${hostname}`] : [])];
  return [...paths].flatMap((p) => domains.map((domain) => `${sentName}=; Path=${p}${domain}; Max-Age=0`));
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

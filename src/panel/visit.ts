/**
 * One request to the panel as its routes see it: who is asking (the session's account, the
 * address), where the panel is reached (origin, HTTPS), the form's binding for CSRF, and the
 * reply being made (status, headers, cookies). Every reply carries the panel's security
 * headers.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Account, PanelStore } from '../registry/panel-types.js';
import { STATUS } from '../wire/status.js';
import type { Html } from './html.js';
import { page, type PageOptions } from './layout.js';
import { clearEverywhere, csrfToken, newId, PRE_COOKIE, readCookies, setCookie, type Binding, type PanelCookies } from './session.js';

export interface PanelSettings {
  store: PanelStore;
  /** Credits of a new account. */
  freeCredits: number;
  /** Projects per account at most. */
  maxProjects: number;
  /** Take the client's address and scheme from X-Forwarded-For / -Proto / -Host (set only behind a proxy that sets them). */
  behindProxy: boolean;
  /** Host names the panel answers to besides IP addresses and `localhost` (lower case; the listen name, --panel-host). */
  hostNames: readonly string[];
  /**
   * Behind a proxy, whether X-Forwarded-Host must be one of them too: when the operator named
   * the public names (--panel-host). Without them, the proxy is what chooses the names that
   * reach cpmx (its own Host header is still checked).
   */
  checkForwardedHost: boolean;
}

/**
 * No script or style but the panel's own files, no inline ones; no frames around it; forms
 * post only to it; nothing else loaded. The Referer goes to the panel itself only ("no-referrer"
 * would make browsers send `Origin: null` on the panel's own forms).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

export interface Visit {
  req: IncomingMessage;
  url: URL;
  /** Milliseconds since 1970, once per request. */
  now: number;
  secure: boolean;
  address: string;
  /** The hosts this request may come from (Host, and X-Forwarded-Host behind a proxy). */
  hosts: string[];
  /** How the panel is reached, for the API example: http(s)://host. */
  origin: string;
  cookies: PanelCookies;
  /** The logged-in account, from a live session. */
  account?: Account | undefined;
  secret: string;
  settings: PanelSettings;
  /** Set-Cookie values of the reply. */
  cookiesOut: string[];
  /** For a form (POST): the page it belongs to, read with GET (where a failed form's page says it is). */
  readAt?: string | undefined;
}

function last(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  const parts = value?.split(',').map((part) => part.trim()).filter(Boolean);
  return parts?.at(-1);
}

/** The last X-Forwarded-For entry (the one the nearest proxy added), if it is an IP address: it becomes a key in the registry. */
function forwardedAddress(req: IncomingMessage): string | undefined {
  const address = last(req.headers['x-forwarded-for']);
  return address !== undefined && isIP(address) !== 0 ? address : undefined;
}

export function visitOf(req: IncomingMessage, settings: PanelSettings, secret: string, now: number): Visit {
  const proxied = settings.behindProxy;
  const host = req.headers.host ?? '';
  const forwardedHost = proxied ? last(req.headers['x-forwarded-host']) : undefined;
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true || (proxied && last(req.headers['x-forwarded-proto'])?.toLowerCase() === 'https');
  const url = new URL(req.url ?? '/', 'http://panel.invalid');
  const cookies = readCookies(req.headers.cookie, secure);
  const cookiesOut = cookies.ambiguous.flatMap((name) => clearEverywhere(name, url.pathname, hostnameOf(host), secure));
  return {
    req,
    url,
    now,
    secure,
    address: (proxied ? forwardedAddress(req) : undefined) ?? req.socket.remoteAddress ?? '-',
    hosts: [host, ...(forwardedHost ? [forwardedHost] : [])].filter(Boolean).map((h) => h.toLowerCase()),
    origin: `${secure ? 'https' : 'http'}://${forwardedHost ?? host}`,
    cookies,
    secret,
    settings,
    cookiesOut,
  };
}

/** `example.mx:3000` → `example.mx`, `[::1]:3000` → `::1`, in lower case. */
export function hostnameOf(host: string): string {
  const name = host.trim().toLowerCase();
  if (name.startsWith('[')) return name.slice(1, name.indexOf(']') < 0 ? undefined : name.indexOf(']'));
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(0, colon);
}

/**
 * The Host names (and, behind a proxy, X-Forwarded-Host) of this request that the panel does
 * not serve. A page of another site whose name an attacker points at this machine (DNS
 * rebinding) arrives with the attacker's name, and is refused before any cookie or the
 * registry is looked at. IP addresses and `localhost` cannot be rebound and are served;
 * other names only when the operator allows them.
 */
export function foreignHosts(req: IncomingMessage, settings: PanelSettings): string[] {
  const forwarded = settings.behindProxy && settings.checkForwardedHost ? [last(req.headers['x-forwarded-host']) ?? ''] : [];
  const given = [req.headers.host ?? '', ...forwarded].filter(Boolean);
  return given.filter((host) => {
    const name = hostnameOf(host);
    return !(isIP(name) !== 0 || name === 'localhost' || settings.hostNames.includes(name.replace(/\.$/, '')));
  });
}

/** What the forms of this visit's page are bound to: the session, or (made now if missing) the cookie before log-in. */
export function binding(visit: Visit): Binding {
  if (visit.account && visit.cookies.session) return { kind: 'sesion', id: visit.cookies.session };
  if (!visit.cookies.pre) {
    visit.cookies.pre = newId();
    visit.cookiesOut.push(setCookie(PRE_COOKIE, visit.cookies.pre, { secure: visit.secure }));
  }
  return { kind: 'previa', id: visit.cookies.pre };
}

export function csrfOf(visit: Visit): string {
  return csrfToken(visit.secret, binding(visit));
}

function headers(visit: Visit | undefined, extra: Record<string, string>): Record<string, string | string[]> {
  const all: Record<string, string | string[]> = { ...SECURITY_HEADERS, 'Cache-Control': 'no-store', ...extra };
  if (visit?.cookiesOut.length) all['Set-Cookie'] = visit.cookiesOut;
  return all;
}

export function htmlReply(visit: Visit | undefined, status: number, document: Html, extra: Record<string, string> = {}): Reply {
  return { status, headers: headers(visit, { 'Content-Type': 'text/html; charset=utf-8', ...extra }), body: document.text };
}

/** A whole page, with this visit's account and CSRF token; its GET address is the request's without `aviso`, unless given. */
export function pageReply(visit: Visit, status: number, options: Omit<PageOptions, 'account' | 'csrf'>, extra: Record<string, string> = {}): Reply {
  return htmlReply(visit, status, page({ address: addressOf(visit), ...options, account: visit.account, csrf: csrfOf(visit) }), extra);
}

/** Where the page of this request is read again with GET: the request's own address without `aviso` (a POST's has none: the route names it). */
function addressOf(visit: Visit): string | undefined {
  if (visit.req.method !== 'GET' && visit.req.method !== 'HEAD') return visit.readAt;
  const query = new URLSearchParams(visit.url.search);
  query.delete('aviso');
  const search = query.toString();
  return `${visit.url.pathname}${search ? `?${search}` : ''}`;
}

/** 303: after a form, the browser asks for `location` with GET. */
export function redirect(visit: Visit | undefined, location: string, status: number = STATUS.seeOther): Reply {
  return { status, headers: headers(visit, { Location: location, 'Content-Type': 'text/plain; charset=utf-8' }), body: `Vea ${location}\n` };
}

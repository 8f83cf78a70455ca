/**
 * The control panel's entry: `cpmx serve --panel` hands it every request under /panel and it
 * answers them itself (the API's responder knows only GET and HEAD). For each request: the
 * static files; else the route, the session's account, the route's access, and for a form
 * its origin and CSRF token; then the route runs. What the registry cannot answer now is a
 * 503 page; nothing the panel does ever reaches the API's answers.
 */
import type { IncomingMessage } from 'node:http';
import type { HttpAnswer } from '../wire/http-answer.js';
import { isRead, targetIs } from '../wire/request-checks.js';
import { ALLOW, STATUS } from '../wire/status.js';
import { answersUnavailable } from '../registry/failure.js';
import type { PanelStore } from '../registry/panel-types.js';
import { ASSETS } from './assets.js';
import { Refusal, readForm } from './forms.js';
import { html } from './html.js';
import { page } from './layout.js';
import { notFound, readableAt, returnTo, ROUTES } from './routes.js';
import { csrfMatches, newId, sessionKey } from './session.js';
import { foreignHosts, hostnameOf, htmlReply, pageReply, redirect, SECURITY_HEADERS, visitOf, type PanelSettings, type Reply, type Visit } from './visit.js';

export interface PanelOptions {
  store: PanelStore;
  freeCredits: number;
  behindProxy?: boolean | undefined;
  maxProjects?: number | undefined;
  /** The name or address the server listens on (`--host`): served, besides IP addresses and localhost. */
  listenHost?: string | undefined;
  /** Host names the operator allows (`--panel-host`); behind a proxy, X-Forwarded-Host is checked against them when any is given. */
  hosts?: readonly string[] | undefined;
}

/**
 * The answer to a request under /panel (the server sends it, as it sends the API's: the
 * access log, connection limits and HEAD apply alike; `close` ends the connection after it),
 * or undefined for any other request, which is the API's.
 */
export type PanelHandler = (req: IncomingMessage) => Promise<HttpAnswer & { close?: boolean }> | undefined;

export const PANEL_PREFIX = '/panel';

export function isPanelTarget(target: string): boolean {
  return targetIs(target, PANEL_PREFIX, true);
}

/** Projects an account may have at once. */
export const MAX_PROJECTS = 100;

export function createPanel(options: PanelOptions): PanelHandler {
  const settings: PanelSettings = {
    store: options.store,
    freeCredits: options.freeCredits,
    maxProjects: options.maxProjects ?? MAX_PROJECTS,
    behindProxy: options.behindProxy ?? false,
    hostNames: [...(options.listenHost ? [options.listenHost] : []), ...(options.hosts ?? [])].map((name) => hostnameOf(name).replace(/\.$/, '')),
    checkForwardedHost: (options.hosts ?? []).length > 0,
  };
  let secret: Promise<string> | undefined;
  const secretOf = () =>
    (secret ??= options.store.panelSecret(newId()).catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));

  async function answer(req: IncomingMessage): Promise<Reply> {
    const target = req.url ?? '/';
    const path = target.split('?')[0]!;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const foreign = foreignHosts(req, settings);
    if (foreign.length > 0) return misdirected(foreign[0]!);
    if (path === PANEL_PREFIX) return redirect(undefined, '/panel/', STATUS.permanentRedirect);
    const asset = /^\/panel\/static\/([a-z]+\.[a-z]+)$/.exec(path);
    if (asset) return assetReply(method, asset[1]!, target);

    const matches = ROUTES.filter((route) => route.path.test(path));
    const route = matches.find((candidate) => candidate.method === method);
    const now = Date.now();
    const visit = visitOf(req, settings, await secretOf(), now);
    const { cookies } = visit;
    if (cookies.session) visit.account = await settings.store.session(sessionKey(cookies.session), now);
    if (!route) {
      if (matches.length === 0) return notFound(visit);
      // A form's address asked for with GET (a reload, Back, a bookmark): its page instead.
      if (method === 'GET') return redirect(visit, readableAt(path));
      const allow = [...new Set(matches.map((m) => m.method))].join(', ').replace('GET', 'GET, HEAD');
      return pageReply(visit, STATUS.methodNotAllowed, { title: 'Método no permitido', body: html`<p>Esta dirección no acepta ${method}.</p>` }, { Allow: allow });
    }
    const id = Number(route.path.exec(path)![1] ?? 0);

    if (route.access !== 'anyone' && !visit.account) {
      // A form posted after the session ended changes nothing: log in again.
      // Two session cookies (one planted by another page of this host): both were cleared.
      const why = cookies.ambiguous.length > 0 ? 'cookies' : cookies.session ? 'sesion' : undefined;
      // A page asked for by its address (a bookmark, a link) is where the log-in goes next.
      const back = method === 'GET' && path !== '/panel/' ? returnTo(target) : undefined;
      const query = new URLSearchParams({ ...(why ? { aviso: why } : {}), ...(back ? { volver: back } : {}) }).toString();
      return redirect(visit, `/panel/entrar${query ? `?${query}` : ''}`);
    }
    // Not even the existence of the administrator's pages is shown to others.
    if (route.access === 'admin' && !visit.account!.admin) return notFound(visit);

    let form = new URLSearchParams();
    if (route.method === 'POST') {
      visit.readAt = readableAt(path);
      refuseForeign(visit);
      form = await readForm(req);
      const bound = route.access === 'anyone' ? (cookies.pre ? { kind: 'previa' as const, id: cookies.pre } : undefined) : { kind: 'sesion' as const, id: cookies.session! };
      if (!csrfMatches(visit.secret, bound, form.get('csrf') ?? undefined)) {
        // A log-in or sign-up form left open in another tab, sent after this browser logged in
        // (which dropped the cookie it was bound to): the person is logged in, so in they go.
        // Nothing is changed, and the form's origin was checked above.
        if (route.access === 'anyone' && visit.account) return redirect(visit, returnTo(form.get('volver')) ?? '/panel/');
        throw new Refusal(STATUS.forbidden, expired);
      }
    }
    return route.run(visit, id, form);
  }

  return (req) => {
    if (!isPanelTarget(req.url ?? '/')) return undefined;
    return answer(req).then(toHttp, (error: unknown) => toHttp(failure(req, error)));
  };
}

/** A reply as the server sends answers: headers as a flat list (Set-Cookie repeated), `Connection: close` as a flag. */
function toHttp(reply: Reply): HttpAnswer & { close: boolean } {
  const headers: string[] = [];
  let close = false;
  for (const [name, value] of Object.entries(reply.headers)) {
    if (name === 'Connection') close = value === 'close';
    else for (const one of Array.isArray(value) ? value : [value]) headers.push(name, one);
  }
  return { status: reply.status, headers, body: reply.body, close };
}

const expired = 'Este formulario caducó o no se envió desde el panel. Vuelva a abrir la página y envíelo de nuevo.';

/** A form posted from another site (Origin or Sec-Fetch-Site say so) is refused before it is read. */
function refuseForeign(visit: Visit): void {
  const { origin } = visit.req.headers;
  const site = visit.req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw new Refusal(STATUS.forbidden, expired);
  if (origin === undefined) return;
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    throw new Refusal(STATUS.forbidden, expired);
  }
  if (!visit.hosts.includes(host)) throw new Refusal(STATUS.forbidden, expired);
}

/** 421: this server does not serve the panel under that name (what a DNS-rebinding page would be sent). */
function misdirected(host: string): Reply {
  const body = html`<p>Este servidor no sirve el panel con el nombre <code>${host}</code>.</p><p>Si usted administra el servicio y ese nombre es suyo, arranque el servidor con <code>--panel-host ${hostnameOf(host)}</code>.</p>`;
  return htmlReply(undefined, STATUS.misdirected, page({ title: 'Nombre no servido', csrf: '', body }));
}

function assetReply(method: string, name: string, target: string): Reply {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return { status: STATUS.notFound, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }, body: 'No encontrado\n' };
  if (!isRead(method)) return { status: STATUS.methodNotAllowed, headers: { ...SECURITY_HEADERS, Allow: ALLOW, 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Método no permitido\n' };
  // The page names each file with its version, so that URL can be cached for good.
  const current = new URL(target, 'http://panel.invalid').searchParams.get('v') === asset.version;
  return {
    status: STATUS.ok,
    headers: { ...SECURITY_HEADERS, 'Content-Type': asset.type, 'Cache-Control': current ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: `"${asset.version}"` },
    body: asset.body,
  };
}

/** The reply when a request could not be answered: refused (its status), the registry not available now (503), or a fault (500). */
function failure(req: IncomingMessage, error: unknown): Reply {
  // The page says it is at the form's page (read with GET), not at the address of the POST.
  const address = readableAt((req.url ?? '/').split('?')[0]!);
  const plain = (status: number, title: string, text: string, extra: Record<string, string> = {}) =>
    htmlReply(undefined, status, page({ title, csrf: '', address, body: html`<p>${text}</p><p><a href="${address}">Volver</a></p>` }), extra);
  if (error instanceof Refusal) {
    // A body not read to its end would be read as the next request: close instead.
    const extra: Record<string, string> = error.status === STATUS.tooLarge ? { Connection: 'close' } : {};
    return plain(error.status, error.status === STATUS.forbidden ? 'Formulario rechazado' : 'Petición rechazada', error.message, extra);
  }
  if (answersUnavailable(error)) {
    process.stderr.write(`cpmx serve: panel: ${req.method} ${req.url}: the registry did not answer (${(error as Error).message})\n`);
    return plain(STATUS.unavailable, 'No disponible por ahora', 'El panel no puede consultar el registro en este momento. Vuelva a intentarlo en unos segundos.', { 'Retry-After': '5' });
  }
  process.stderr.write(`cpmx serve: panel: ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}\n`);
  return plain(STATUS.internal, 'Error interno', 'Algo falló en el panel. Vuelva a intentarlo; si sigue fallando, avise al administrador.');
}

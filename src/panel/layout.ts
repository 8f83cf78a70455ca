/**
 * The page around every view: language, title, the stylesheet and the one script, a link to
 * skip to the content, who is logged in, the navigation, and a live region where the result
 * of the last action is announced. Plus the small pieces forms repeat.
 */
import type { Account } from '../registry/panel-types.js';
import { assetUrl } from './assets.js';
import { html, type Content, type Html } from './html.js';

export interface PageOptions {
  title: string;
  /** The logged-in account, if any. */
  account?: Account | undefined;
  /** The CSRF token of the forms on this page (the log-out button's too). */
  csrf: string;
  /** What the last action did, announced politely. */
  notice?: string | undefined;
  /** What was wrong, announced at once. */
  errors?: readonly string[] | undefined;
  body: Content;
  /**
   * The address this page is read at with GET (no `aviso`): the script puts it in the address
   * bar, so a reload or Back never posts a form again nor shows a notice twice.
   */
  address?: string | undefined;
  /** Wide content (the administrator's table): the page may use up to 80rem. */
  wide?: boolean | undefined;
}

export function page(options: PageOptions): Html {
  const { account, csrf, notice, errors } = options;
  return html`<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Panel de cpmx</title>
<link rel="icon" href="${assetUrl('icono.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('panel.css')}">
<script src="${assetUrl('panel.js')}" defer></script>
</head>
<body${options.address ? html` data-direccion="${options.address}"` : ''}>
<a class="saltar" href="#contenido">Saltar al contenido</a>
<header>
<div class="contenedor">
<p class="marca"><a href="/panel/">cpmx · Panel de control</a></p>
${
  account
    ? html`<nav aria-label="Principal">
<ul>
<li><a href="/panel/">Proyectos</a></li>
${account.admin ? html`<li><a href="/panel/admin">Cuentas</a></li>` : ''}
<li><form method="post" action="/panel/salir">${csrfField(csrf)}<button type="submit">Salir</button></form></li>
</ul>
</nav>
<p class="quien">Sesión de <strong>${account.name}</strong> (${account.email ?? ''})</p>`
    : html`<nav aria-label="Principal">
<ul>
<li><a href="/panel/entrar">Entrar</a></li>
<li><a href="/panel/registro">Crear una cuenta</a></li>
</ul>
</nav>`
}
</div>
</header>
<main id="contenido" class="contenedor${options.wide ? ' ancho' : ''}" tabindex="-1">
<div id="aviso" class="aviso" role="status" aria-live="polite">${notice ?? ''}</div>
${errors?.length ? html`<div class="error" role="alert"><p><strong>Revise lo siguiente:</strong></p><ul>${errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
<h1>${options.title}</h1>
${options.body}
</main>
<footer class="pie contenedor">
<p>cpmx: códigos postales de México (catálogo de SEPOMEX) con el contrato de la API de COPOMEX.</p>
</footer>
</body>
</html>
`;
}

export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="csrf" value="${csrf}">`;
}

export interface FieldOptions {
  id: string;
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'number';
  value?: string | undefined;
  autocomplete?: string | undefined;
  hint?: string | undefined;
  /** The field's error, when the form came back. */
  error?: string | undefined;
  required?: boolean;
  /** Put the cursor here when the page loads (the first field that was wrong). */
  autofocus?: boolean;
  extra?: Html | undefined;
}

/** A labelled input: its hint and its error are tied to it for screen readers. */
export function field(options: FieldOptions): Html {
  const described = [options.hint ? `${options.id}-ayuda` : '', options.error ? `${options.id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="campo">
<label for="${options.id}">${options.label}</label>
<input id="${options.id}" name="${options.name}" type="${options.type}"${options.value !== undefined ? html` value="${options.value}"` : ''}${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.required === false ? '' : html` required`}${described ? html` aria-describedby="${described}"` : ''}${options.error ? html` aria-invalid="true"` : ''}${options.autofocus ? html` autofocus` : ''}${options.extra ?? ''}>
${options.hint ? html`<span class="ayuda" id="${options.id}-ayuda">${options.hint}</span>` : ''}
${options.error ? html`<span class="ayuda" id="${options.id}-error"><strong>${options.error}</strong></span>` : ''}
</div>`;
}

export const formatNumber = (n: number) => n.toLocaleString('es-MX');

/**
 * An ISO 8601 time as people read it: 2026-05-20 17:25 UTC, in a <time> element that the
 * script rewrites in the reader's own time zone (without the script, UTC says which it is).
 */
export const formatTime = (iso: string): Html => html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;

/** The day alone (where room is short, as in the administrator's table), in the reader's zone too: 2026-05-20 UTC. */
export const formatDay = (iso: string): Html => html`<time datetime="${iso}" data-dia>${iso.slice(0, 10)} UTC</time>`;

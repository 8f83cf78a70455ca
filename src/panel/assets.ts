/**
 * The panel's stylesheet, its one script and its icon, served from memory under
 * /panel/static/ (the Content-Security-Policy allows scripts and styles from the panel's own
 * origin only, none inline). The script only adds the copy button: every page works without
 * it (the token is in a field that can be selected and copied by hand).
 */
import { createHash } from 'node:crypto';

const CSS = `:root{color-scheme:light;--texto:#1b1b1b;--suave:#4a4a4a;--fondo:#fff;--zona:#f3f5f7;--borde:#8a9199;--acento:#0b5394;--acento-oscuro:#073763;--peligro:#a61b1b;--ok:#1d6b32;--foco:#f0a500}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif;font-size:100%;line-height:1.5;color:var(--texto);background:var(--fondo)}
body{margin:0}
a{color:var(--acento)}
a:hover{color:var(--acento-oscuro)}
:focus-visible{outline:3px solid var(--foco);outline-offset:2px}
.saltar{position:absolute;left:-9999px;top:0;background:var(--fondo);padding:.5rem 1rem;z-index:2}
.saltar:focus{left:.5rem;top:.5rem}
.visualmente-oculto{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
header{background:var(--acento-oscuro);color:#fff}
header .contenedor{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;padding:.75rem 1rem}
header a{color:#fff}
.marca{margin:0;font-weight:700;font-size:1.125rem}
.marca a{text-decoration:none}
header nav ul{list-style:none;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;margin:0;padding:0}
header .quien{margin:0;font-size:.9rem;opacity:.9}
header form{margin:0}
header button{background:transparent;color:#fff;border:1px solid #fff;padding:.25rem .75rem}
header button:hover{background:#ffffff22}
.contenedor{max-width:60rem;margin:0 auto}
main.ancho{max-width:80rem}
main{padding:1rem 1rem 3rem}
main:focus{outline:none}
h1{font-size:1.75rem;line-height:1.25;margin:1rem 0}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
section{margin-bottom:1.5rem}
.aviso{padding:.75rem 1rem;border-left:4px solid var(--ok);background:#e9f5ec;margin:1rem 0}
.aviso:empty{display:none}
.error{padding:.75rem 1rem;border-left:4px solid var(--peligro);background:#fbeaea;margin:1rem 0}
.error ul{margin:.25rem 0 0;padding-left:1.25rem}
form.bloque{max-width:28rem}
.campo{margin-bottom:1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
.ayuda{display:block;color:var(--suave);font-size:.9rem;margin-top:.25rem}
input[type=text],input[type=email],input[type=password],input[type=number]{width:100%;font:inherit;padding:.5rem .625rem;border:1px solid var(--borde);border-radius:4px;background:#fff;color:var(--texto)}
input[aria-invalid=true]{border-color:var(--peligro);border-width:2px}
input.token{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:1rem}
button,.boton{font:inherit;font-weight:600;cursor:pointer;display:inline-block;padding:.5rem 1rem;border-radius:4px;border:2px solid var(--acento);background:var(--acento);color:#fff;text-decoration:none}
button:hover,.boton:hover{background:var(--acento-oscuro);border-color:var(--acento-oscuro);color:#fff}
button.secundario{background:#fff;color:var(--acento)}
button.secundario:hover{background:var(--zona);color:var(--acento-oscuro)}
button.peligro,.boton.peligro{background:var(--peligro);border-color:var(--peligro);color:#fff}
table .boton{padding:.25rem .625rem;white-space:nowrap}
.fila{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
.fila input{flex:1 1 16rem;width:auto}
.creditos{font-size:1.125rem;background:var(--zona);padding:.75rem 1rem;border-radius:4px}
.creditos strong{font-size:1.5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #d5d9de;vertical-align:top}
thead th{border-bottom:2px solid var(--borde)}
td.numero,th.numero{text-align:right;font-variant-numeric:tabular-nums}
.tabla{overflow-x:auto;position:relative}
table form{display:flex;gap:.25rem;margin:0}
table input[type=number]{width:5.5rem}
table button{padding:.25rem .625rem;white-space:nowrap}
#cuentas th,#cuentas td{padding:.5rem .375rem}
#cuentas small{overflow-wrap:anywhere;font-weight:400}
td.fecha{white-space:nowrap}
code,.codigo{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;background:var(--zona);padding:.125rem .25rem;border-radius:3px;overflow-wrap:anywhere}
pre.codigo{padding:.75rem;white-space:pre-wrap}
.grafica{margin:0}
.grafica svg{width:100%;max-width:36rem;height:auto;display:block}
.grafica figcaption{color:var(--suave);font-size:.9rem}
.barra{fill:var(--acento)}
.rejilla{stroke:#d5d9de;stroke-width:1}
.eje{fill:var(--suave);font-size:14px;font-family:inherit}
@media (min-width:40rem){.eje{font-size:10px}}
details.datos{margin:.5rem 0}
.pie{color:var(--suave);font-size:.875rem;padding:1rem;border-top:1px solid #d5d9de}
.paginas{display:flex;gap:1rem}
.estado-desactivada{color:var(--peligro);font-weight:600}
`;

const JS = `'use strict';
// cpmx panel. Without this script every page still works: the copy button stays hidden (the
// token can be selected and copied by hand) and times are shown in UTC.

// The address bar shows where this page is read with GET: after a form, a reload or Back does
// not post it again, and a notice (?aviso=) is shown once, not on every reload.
const address = document.body.dataset.direccion;
// Chromium drops a posted body from the entry only when its URL changes: the address with an
// empty query first, then the address itself.
if (address) {
  history.replaceState(null, '', address.includes('?') ? address + '&' : address + '?');
  history.replaceState(null, '', address + location.hash);
}

// Times in the reader's own time zone.
const clock = new Intl.DateTimeFormat('es-MX', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
const calendar = new Intl.DateTimeFormat('es-MX', { year: 'numeric', month: 'short', day: 'numeric' });
for (const time of document.querySelectorAll('time[datetime]')) {
  const when = new Date(time.getAttribute('datetime'));
  if (Number.isNaN(when.getTime())) continue;
  time.title = time.hasAttribute('data-dia') ? clock.format(when) : time.textContent;
  time.textContent = (time.hasAttribute('data-dia') ? calendar : clock).format(when);
}

for (const button of document.querySelectorAll('button[data-copiar]')) {
  const field = document.getElementById(button.dataset.copiar);
  const status = document.getElementById(button.dataset.aviso);
  if (!field) continue;
  const say = (text) => {
    if (!status) return;
    status.textContent = '';
    setTimeout(() => { status.textContent = text; }, 50);
  };
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      say('Token copiado al portapapeles.');
    } catch {
      field.focus();
      field.select();
      let copied = false;
      try { copied = document.execCommand('copy'); } catch {}
      say(copied ? 'Token copiado al portapapeles.' : 'No se pudo copiar: el token quedó seleccionado; cópielo con Ctrl+C.');
    }
  });
}
`;

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#073763"/><path d="M9 21V11h4.5a3 3 0 0 1 0 6H9m10-6v10m0-5h4" stroke="#fff" stroke-width="2.5" fill="none"/></svg>`;

export interface Asset {
  type: string;
  body: string;
  /** A short hash of the body: part of its URL, so it can be cached for good. */
  version: string;
}

function asset(type: string, body: string): Asset {
  return { type, body, version: createHash('sha256').update(body).digest('base64url').slice(0, 12) };
}

export const ASSETS: Readonly<Record<string, Asset>> = {
  'panel.css': asset('text/css; charset=utf-8', CSS),
  'panel.js': asset('text/javascript; charset=utf-8', JS),
  'icono.svg': asset('image/svg+xml', ICON),
};

/** An asset's URL, with its version. */
export function assetUrl(name: keyof typeof ASSETS & string): string {
  return `/panel/static/${name}?v=${ASSETS[name]!.version}`;
}

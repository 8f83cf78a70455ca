/** The administrator's list of accounts: credits, projects, state, and the forms to grant credits and to disable or enable an account. */
import type { Account, AccountSummary } from '../../registry/panel-types.js';
import { html, type Html } from '../html.js';
import { csrfField, formatDay, formatNumber } from '../layout.js';

export const ACCOUNTS_PER_PAGE = 100;

export function adminView(me: Account, list: { accounts: readonly AccountSummary[]; total: number }, pageNumber: number, csrf: string): Html {
  const pages = Math.max(1, Math.ceil(list.total / ACCOUNTS_PER_PAGE));
  return html`<p>${formatNumber(list.total)} ${list.total === 1 ? 'cuenta' : 'cuentas'}${pages > 1 ? html`; página ${pageNumber} de ${pages}` : ''}. Desactivar una cuenta cierra sus sesiones y sus tokens responden 107 desde la siguiente consulta.</p>
<div class="tabla"><table id="cuentas">
<thead><tr><th scope="col">Cuenta</th><th scope="col" class="numero">Créditos</th><th scope="col" class="numero">Proyectos</th><th scope="col" class="numero">Gastados</th><th scope="col">Estado</th><th scope="col">Alta</th><th scope="col">Dar créditos</th><th scope="col">Acceso</th></tr></thead>
<tbody>${list.accounts.map((account) => row(me, account, csrf))}</tbody>
</table></div>
${
  pages > 1
    ? html`<nav aria-label="Páginas de cuentas"><p class="paginas">${pageNumber > 1 ? html`<a href="/panel/admin?pagina=${pageNumber - 1}" rel="prev">Página anterior</a>` : ''}${pageNumber < pages ? html`<a href="/panel/admin?pagina=${pageNumber + 1}" rel="next">Página siguiente</a>` : ''}</p></nav>`
    : ''
}`;
}

function row(me: Account, account: AccountSummary, csrf: string): Html {
  const who = account.email ?? `cuenta ${account.id}`;
  return html`<tr id="cuenta-${account.id}">
<th scope="row">${account.name}<br><small>${account.email ?? html`<em>sin correo (creada con cpmx tokens)</em>`}</small>${account.admin ? html`<br><small>administrador</small>` : ''}</th>
<td class="numero">${formatNumber(account.credits)}</td>
<td class="numero">${formatNumber(account.projects)}</td>
<td class="numero">${formatNumber(account.used)}</td>
<td>${account.disabled ? html`<span class="estado-desactivada">Desactivada</span>` : 'Activa'}</td>
<td class="fecha">${formatDay(account.created)}</td>
<td><form method="post" action="/panel/admin/cuentas/${account.id}/creditos">${csrfField(csrf)}<label class="visualmente-oculto" for="creditos-${account.id}">Créditos para ${who}</label><input id="creditos-${account.id}" name="creditos" type="number" min="1" max="10000000" step="1" required><button type="submit">Dar</button></form></td>
<td>${
    account.id === me.id
      ? html`<small>su cuenta</small>`
      : account.disabled
        ? html`<form method="post" action="/panel/admin/cuentas/${account.id}/estado">${csrfField(csrf)}<input type="hidden" name="desactivar" value="no"><button type="submit" class="secundario" aria-label="Activar ${who}">Activar</button></form>`
        : // Disabling ends sessions and tokens: it is asked for on a page of its own first.
          html`<a class="boton peligro" href="/panel/admin/cuentas/${account.id}/estado" aria-label="Desactivar ${who}…">Desactivar…</a>`
  }</td>
</tr>`;
}

/** The question before an account is disabled: what it does, and the one button that does it. */
export function confirmDisableView(account: Account, csrf: string): Html {
  const who = account.email ?? `cuenta ${account.id}`;
  return html`<p>Se cerrarán las sesiones de <strong>${account.name}</strong> (${who}), no podrá entrar al panel y los tokens de sus proyectos responderán 107 desde la siguiente consulta. Sus proyectos y créditos se conservan: puede activarla de nuevo cuando quiera.</p>
<form method="post" action="/panel/admin/cuentas/${account.id}/estado">
${csrfField(csrf)}<input type="hidden" name="desactivar" value="si">
<p class="fila"><button type="submit" class="peligro">Sí, desactivar ${who}</button> <a href="/panel/admin#cuenta-${account.id}">Cancelar</a></p>
</form>`;
}

/** The account's projects, one project (its token, usage and errors), and the confirmation before deleting one. */
import type { Account } from '../../registry/panel-types.js';
import type { Project, Usage } from '../../registry/types.js';
import { usageChart } from '../chart.js';
import { html, type Html } from '../html.js';
import { csrfField, field, formatNumber, formatTime } from '../layout.js';

function credits(account: Account): Html {
  return html`<p class="creditos" id="creditos"><strong>${formatNumber(account.credits)}</strong> ${account.credits === 1 ? 'crédito disponible' : 'créditos disponibles'} en su cuenta, para todos sus proyectos.</p>${
    account.credits === 0
      ? html`<p class="error" id="sin-creditos">Sin créditos, las consultas con sus tokens responden 108 (sin datos). Para seguir consultando, pida créditos al administrador de este servicio${account.email ? html` desde ${account.email}` : ''}: los que le den se suman de inmediato a todos sus proyectos.</p>`
      : ''
  }`;
}

export interface ProjectsForm {
  csrf: string;
  name?: string | undefined;
  error?: string | undefined;
}

export function projectsView(account: Account, projects: readonly Project[], form: ProjectsForm, limit: number): Html {
  return html`${credits(account)}
<section aria-labelledby="lista-titulo">
<h2 id="lista-titulo">Proyectos</h2>
${
  projects.length === 0
    ? html`<p>Aún no tiene proyectos. Cree uno para obtener su token.</p>`
    : html`<div class="tabla"><table>
<thead><tr><th scope="col">Proyecto</th><th scope="col" class="numero">Créditos gastados</th><th scope="col">Creado</th></tr></thead>
<tbody>${projects.map(
        (p) => html`<tr><th scope="row"><a href="/panel/proyectos/${p.project}">${p.name}</a>${p.revoked ? html` <span>(token revocado)</span>` : ''}</th><td class="numero">${formatNumber(p.used)}</td><td>${formatTime(p.created)}</td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="nuevo-titulo">
<h2 id="nuevo-titulo">Nuevo proyecto</h2>
${
  projects.length >= limit
    ? html`<p>Tiene ${formatNumber(limit)} proyectos, el máximo por cuenta: borre uno para crear otro.</p>`
    : html`<form class="bloque" method="post" action="/panel/proyectos">
${csrfField(form.csrf)}
${field({ id: 'nombre-proyecto', name: 'nombre', label: 'Nombre del proyecto', type: 'text', value: form.name, hint: 'Por ejemplo, el nombre de su sitio o aplicación.', error: form.error, autofocus: form.error !== undefined })}
<button type="submit">Crear proyecto</button>
</form>`
}
</section>`;
}

const MEANING: Record<number, string> = {
  107: 'Token no válido: revocado, de un proyecto borrado o de una cuenta desactivada',
  108: 'Sin créditos',
};

export interface ProjectForm {
  csrf: string;
  /** The origin the API is reached at, for the example. */
  origin: string;
  renameValue?: string | undefined;
  renameError?: string | undefined;
}

export function projectView(account: Account, project: Project, usage: Usage, form: ProjectForm): Html {
  const today = usage.days.at(-1);
  const total = usage.days.reduce((sum, d) => ({ requests: sum.requests + d.requests, credits: sum.credits + d.credits }), { requests: 0, credits: 0 });
  const example = `${form.origin}/query/info_cp/09810?token=${project.token}`;
  return html`<p><a href="/panel/">← Sus proyectos</a></p>
<section aria-labelledby="token-titulo">
<h2 id="token-titulo">Token</h2>
${
  project.revoked
    ? html`<p class="error">Un operador revocó este token: las consultas con él responden 107. Cree un token nuevo abajo.</p>`
    : html`<p>Envíe este token en cada consulta. Guárdelo como una contraseña: quien lo tenga gasta los créditos de su cuenta.</p>`
}
<div class="campo">
<label for="token">Token de ${project.name}</label>
<div class="fila">
<input id="token" class="token" type="text" value="${project.token}" readonly spellcheck="false" autocomplete="off" aria-describedby="token-ayuda">
<button type="button" class="secundario" data-copiar="token" data-aviso="copiado" hidden>Copiar token</button>
</div>
<span class="ayuda" id="token-ayuda">Para copiarlo, selecciónelo y pulse Ctrl+C (⌘+C en Mac).</span>
</div>
<p id="copiado" role="status" aria-live="polite"></p>
<p>Una consulta de ejemplo:</p>
<pre class="codigo"><code>curl '${example}'</code></pre>
</section>
<section aria-labelledby="uso-titulo">
<h2 id="uso-titulo">Uso</h2>
${credits(account)}
<ul>
<li>Hoy (UTC): <strong id="peticiones-hoy">${formatNumber(today?.requests ?? 0)}</strong> ${today?.requests === 1 ? 'petición' : 'peticiones'}, <strong id="creditos-hoy">${formatNumber(today?.credits ?? 0)}</strong> ${today?.credits === 1 ? 'crédito gastado' : 'créditos gastados'}.</li>
<li>Últimos ${usage.days.length} días: ${formatNumber(total.requests)} ${total.requests === 1 ? 'petición' : 'peticiones'}, ${formatNumber(total.credits)} ${total.credits === 1 ? 'crédito gastado' : 'créditos gastados'}.</li>
</ul>
${usageChart(usage.days, 'grafica')}
</section>
<section aria-labelledby="errores-titulo">
<h2 id="errores-titulo">Errores recientes</h2>
${
  usage.errors.length === 0
    ? html`<p id="sin-errores">Ninguna consulta de este proyecto ha sido rechazada.</p>`
    : html`<p>Las últimas consultas rechazadas por el token (107) o por falta de créditos (108), la más reciente primero.</p>
<div class="tabla"><table id="errores">
<thead><tr><th scope="col">Cuándo</th><th scope="col">Código</th><th scope="col">Significado</th><th scope="col" class="numero">Consultas</th><th scope="col">Token</th></tr></thead>
<tbody>${usage.errors.slice(0, 20).map(
        (e) =>
          html`<tr><td>${formatTime(e.at)}</td><td>${e.code}</td><td>${MEANING[e.code] ?? ''}</td><td class="numero">${formatNumber(e.count)}</td><td>${e.token === project.token ? 'el actual' : html`anterior, <code>…${e.token.slice(-6)}</code>`}</td></tr>`,
      )}</tbody>
</table></div>`
}
</section>
<section aria-labelledby="nombre-titulo">
<h2 id="nombre-titulo">Cambiar el nombre</h2>
<form class="bloque" method="post" action="/panel/proyectos/${project.project}/nombre">
${csrfField(form.csrf)}
${field({ id: 'nombre-proyecto', name: 'nombre', label: 'Nombre del proyecto', type: 'text', value: form.renameValue ?? project.name, error: form.renameError, autofocus: form.renameError !== undefined })}
<button type="submit">Guardar el nombre</button>
</form>
</section>
<section aria-labelledby="regenerar-titulo">
<h2 id="regenerar-titulo">Token nuevo</h2>
<p>Si el token se filtró, cree uno nuevo: el actual deja de funcionar en ese momento y las consultas con él responden 107.</p>
<p><a href="/panel/proyectos/${project.project}/token">Crear un token nuevo…</a></p>
</section>
<section aria-labelledby="borrar-titulo">
<h2 id="borrar-titulo">Borrar el proyecto</h2>
<p><a href="/panel/proyectos/${project.project}/borrar">Borrar ${project.name}…</a></p>
</section>`;
}

export function confirmDeleteView(project: Project, csrf: string): Html {
  return html`<p>Su token dejará de funcionar de inmediato (las consultas con él responderán 107) y se borrará su historial de uso. Los créditos de su cuenta no cambian.</p>
<form method="post" action="/panel/proyectos/${project.project}/borrar">
${csrfField(csrf)}
<p class="fila"><button type="submit" class="peligro">Sí, borrar ${project.name}</button> <a href="/panel/proyectos/${project.project}">Cancelar</a></p>
</form>`;
}

/** The question before a token is replaced: the current one stops working at once. */
export function confirmRegenerateView(project: Project, csrf: string): Html {
  return html`<p>El token actual de <strong>${project.name}</strong> dejará de funcionar en ese momento: las consultas con él responderán 107 hasta que ponga el nuevo en su sitio o aplicación. El historial de uso y los créditos no cambian.</p>
<form method="post" action="/panel/proyectos/${project.project}/token">
${csrfField(csrf)}
<p class="fila"><button type="submit" class="peligro">Sí, crear un token nuevo</button> <a href="/panel/proyectos/${project.project}">Cancelar</a></p>
</form>`;
}

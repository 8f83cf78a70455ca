/**
 * Log-in and sign-up forms. What was typed comes back (escaped) when a form must be corrected;
 * a password never does. They post to their page's address plus `?enviar`: the page that
 * comes back is then read at another URL (the bare address, see layout.ts), and Chromium
 * drops the posted body from history only when the URL changes, so reload and Back never
 * post the form again.
 */
import { html, type Html } from '../html.js';
import { csrfField, field, formatNumber } from '../layout.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../password.js';

export interface AuthForm {
  csrf: string;
  email?: string | undefined;
  name?: string | undefined;
  /** Errors per field (the form's own under `form`). */
  errors?: Partial<Record<'email' | 'password' | 'name' | 'form', string>> | undefined;
  /** The panel address to go to after log-in (a deep link that asked for it). */
  then?: string | undefined;
}

export function loginView(form: AuthForm): Html {
  const errors = form.errors ?? {};
  return html`<form class="bloque" method="post" action="/panel/entrar?enviar">
${csrfField(form.csrf)}${form.then ? html`<input type="hidden" name="volver" value="${form.then}">` : ''}
${field({ id: 'correo', name: 'correo', label: 'Correo electrónico', type: 'email', value: form.email, autocomplete: 'username', error: errors.email, autofocus: errors.email !== undefined || errors.form !== undefined })}
${field({ id: 'contrasena', name: 'contrasena', label: 'Contraseña', type: 'password', autocomplete: 'current-password', error: errors.password, autofocus: errors.password !== undefined && errors.email === undefined })}
<button type="submit">Entrar</button>
</form>
<p>¿Aún no tiene cuenta? <a href="/panel/registro">Cree una cuenta gratis</a>.</p>`;
}

export function signupView(form: AuthForm & { freeCredits: number }): Html {
  const errors = form.errors ?? {};
  const first = (['name', 'email', 'password'] as const).find((key) => errors[key] !== undefined);
  return html`<p>Con una cuenta crea proyectos y obtiene sus tokens para consultar la API. Al registrarse recibe <strong>${formatNumber(form.freeCredits)} créditos gratis</strong>: cada consulta que responde con datos gasta uno.</p>
<form class="bloque" method="post" action="/panel/registro?enviar">
${csrfField(form.csrf)}
${field({ id: 'nombre', name: 'nombre', label: 'Su nombre o el de su organización', type: 'text', value: form.name, autocomplete: 'organization', error: errors.name, autofocus: first === 'name' })}
${field({ id: 'correo', name: 'correo', label: 'Correo electrónico', type: 'email', value: form.email, autocomplete: 'email', error: errors.email, autofocus: first === 'email' })}
${field({ id: 'contrasena', name: 'contrasena', label: 'Contraseña', type: 'password', autocomplete: 'new-password', hint: `De ${PASSWORD_MIN} a ${PASSWORD_MAX} caracteres.`, error: errors.password, autofocus: first === 'password' })}
<button type="submit">Crear cuenta</button>
</form>
<p>¿Ya tiene cuenta? <a href="/panel/entrar">Entre</a>.</p>`;
}

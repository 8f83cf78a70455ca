/**
 * The panel's routes: what each page shows and what each form does. Access is declared per
 * route (`anyone`, `user`, `admin`) and checked before a route runs (handler.ts); every project
 * a route touches is asked of the store for the logged-in account, so an id of another
 * account's project is "not found", the same as an id that does not exist.
 */
import { STATUS } from '../wire/status.js';
import { html } from './html.js';
import { checkCredits, checkEmail, checkName, checkPassword } from './forms.js';
import { hashPassword, passwordFits, verifyPassword, weakerThanNow } from './password.js';
import { clearCookie, newId, PRE_COOKIE, SESSION_COOKIE, SESSION_MS, sessionKey, setCookie } from './session.js';
import { ACCOUNTS_PER_PAGE, adminView, confirmDisableView } from './views/admin.js';
import { loginView, signupView } from './views/auth.js';
import { confirmDeleteView, confirmRegenerateView, projectsView, projectView } from './views/projects.js';
import { csrfOf, pageReply, redirect, type Reply, type Visit } from './visit.js';

/** Log-in attempts: 10 wrong passwords a minute per account, 30 per address; sign-ups: 10 an hour per address. */
export const LIMITS = {
  account: { limit: 10, windowMs: 60_000 },
  address: { limit: 30, windowMs: 60_000 },
  signup: { limit: 10, windowMs: 3_600_000 },
} as const;

export type Access = 'anyone' | 'user' | 'admin';

export interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  access: Access;
  run(visit: Visit, id: number, form: URLSearchParams): Promise<Reply>;
}

/** The messages a redirect may ask a page to announce (`?aviso=`): fixed texts, nothing from the URL is shown. */
const NOTICES: Record<string, string> = {
  bienvenida: 'Su cuenta está lista. Cree un proyecto para obtener su token.',
  creado: 'Proyecto creado. Su token está abajo.',
  renombrado: 'Nombre guardado.',
  regenerado: 'Token nuevo creado: el anterior ya no funciona.',
  borrado: 'Proyecto borrado.',
  salio: 'Cerró su sesión.',
  sesion: 'Su sesión terminó: entre de nuevo.',
  cookies: 'Su navegador enviaba dos cookies de sesión (otra página de este servidor puso una): por seguridad se borraron. Entre de nuevo.',
  creditos: 'Créditos otorgados.',
  desactivada: 'Cuenta desactivada: sus sesiones se cerraron y sus tokens ya no responden.',
  activada: 'Cuenta activada.',
};

function notice(visit: Visit): string | undefined {
  const key = visit.url.searchParams.get('aviso') ?? '';
  // Own keys only: `?aviso=__proto__` or `constructor` names no notice.
  return Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined;
}

/**
 * Starts a new session for `account` and goes to `then`. The session this browser had is
 * ended, and the log-in's own attempts (`forgets`) forgotten, in the same transaction: one
 * commit instead of three.
 */
async function logIn(visit: Visit, account: number, then: string, forgets?: readonly number[]): Promise<Reply> {
  const { store } = visit.settings;
  const id = newId();
  const ends = visit.cookies.session ? sessionKey(visit.cookies.session) : undefined;
  await store.createSession(sessionKey(id), account, visit.now, visit.now + SESSION_MS, { ends, forgets });
  visit.cookiesOut.push(setCookie(SESSION_COOKIE, id, { secure: visit.secure, maxAgeS: SESSION_MS / 1000 }), clearCookie(PRE_COOKIE, visit.secure));
  return redirect(visit, then);
}

async function dashboard(visit: Visit, form?: { name: string; error: string }): Promise<Reply> {
  const account = visit.account!;
  const projects = await visit.settings.store.projectsOf(account.id);
  return pageReply(visit, form ? STATUS.unprocessable : STATUS.ok, {
    title: 'Sus proyectos',
    notice: form ? undefined : notice(visit),
    errors: form ? [form.error] : undefined,
    body: projectsView(account, projects, { csrf: csrfOf(visit), name: form?.name, error: form?.error }, visit.settings.maxProjects),
  });
}

async function projectPage(visit: Visit, id: number, rename?: { value: string; error: string }): Promise<Reply> {
  const account = visit.account!;
  const { store } = visit.settings;
  const [project, usage] = await Promise.all([store.projectOf(account.id, id), store.projectUsage(account.id, id, 30)]);
  if (!project || !usage) return notFound(visit);
  return pageReply(visit, rename ? STATUS.unprocessable : STATUS.ok, {
    title: project.name,
    notice: rename ? undefined : notice(visit),
    errors: rename ? [rename.error] : undefined,
    body: projectView(account, project, usage, { csrf: csrfOf(visit), origin: visit.origin, renameValue: rename?.value, renameError: rename?.error }),
  });
}

async function adminPage(visit: Visit, errors?: string[]): Promise<Reply> {
  const requested = Number(visit.url.searchParams.get('pagina') ?? '1');
  const pageNumber = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
  const list = await visit.settings.store.accounts((pageNumber - 1) * ACCOUNTS_PER_PAGE, ACCOUNTS_PER_PAGE);
  return pageReply(visit, errors ? STATUS.unprocessable : STATUS.ok, {
    title: 'Cuentas',
    notice: errors ? undefined : notice(visit),
    errors,
    body: adminView(visit.account!, list, pageNumber, csrfOf(visit)),
    wide: true,
    ...(errors ? { address: '/panel/admin' } : {}),
  });
}

export function notFound(visit: Visit): Reply {
  return pageReply(visit, STATUS.notFound, {
    // No address of its own: the page is word for word the same for any id (its own, another's, none).
    address: undefined,
    title: 'No encontrado',
    body: html`<p>Esta página no existe, o no es de su cuenta.</p><p><a href="/panel/">Ir a sus proyectos</a></p>`,
  });
}

const ID = '(\\d{1,15})';

export const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: /^\/panel\/$/,
    access: 'user',
    run: (visit) => dashboard(visit),
  },
  {
    method: 'GET',
    path: /^\/panel\/entrar$/,
    access: 'anyone',
    async run(visit) {
      const then = returnTo(visit.url.searchParams.get('volver'));
      if (visit.account) return redirect(visit, then ?? '/panel/');
      return pageReply(visit, STATUS.ok, { title: 'Entrar', notice: notice(visit), body: loginView({ csrf: csrfOf(visit), then }) });
    },
  },
  {
    method: 'POST',
    path: /^\/panel\/entrar$/,
    access: 'anyone',
    async run(visit, _id, form) {
      const { store } = visit.settings;
      const email = checkEmail(form.get('correo'));
      const password = form.get('contrasena') ?? '';
      const then = returnTo(form.get('volver'));
      const again = (status: number, errors: { email?: string; password?: string; form?: string }, extra: Record<string, string> = {}) =>
        pageReply(
          visit,
          status,
          {
            title: 'Entrar',
            errors: Object.values(errors),
            body: loginView({ csrf: csrfOf(visit), email: form.get('correo') ?? '', errors, then }),
            ...(then ? { address: `/panel/entrar?${new URLSearchParams({ volver: then })}` } : {}),
          },
          extra,
        );
      if (!email.ok) return again(STATUS.unprocessable, { email: email.message });
      if (password === '') return again(STATUS.unprocessable, { password: 'Escriba su contraseña.' });
      // Counted before anything is checked: past the limit, not even the password is looked at.
      // The account is read beside the count (both asked of the registry at once), and not
      // looked at either when the count refuses.
      const [attempt, found] = await Promise.all([
        store.attempt(
          [
            { key: `cuenta:${email.value}`, ...LIMITS.account },
            { key: `ip:${visit.address}`, ...LIMITS.address },
          ],
          visit.now,
        ),
        store.credentials(email.value),
      ]);
      if (!attempt) return again(STATUS.tooManyRequests, { form: 'Demasiados intentos fallidos. Espere un minuto y vuelva a intentarlo.' }, { 'Retry-After': '60' });
      // No account, or a password too long to be anyone's (measured as sign-up measures it): the decoy keeps the time the same.
      const possible = passwordFits(password);
      const right = await verifyPassword(possible ? password : '', possible ? found?.passwordHash : undefined);
      if (!found || !right) return again(STATUS.unauthorized, { form: 'El correo o la contraseña no son correctos.' });
      // The one moment the password is known: a hash made at a lower cost is made again at
      // today's, while the session is written (the answer waits for both).
      const stored = found.passwordHash!;
      const rehash = weakerThanNow(stored) ? hashPassword(password).then((stronger) => store.rehashPassword(found.account.id, stored, stronger)) : undefined;
      if (found.account.disabled) {
        await Promise.all([store.forgetAttempts(attempt), rehash]);
        return again(STATUS.forbidden, { form: 'Esta cuenta está desactivada. Escriba al administrador del servicio.' });
      }
      const [reply] = await Promise.all([logIn(visit, found.account.id, then ?? '/panel/', attempt), rehash]);
      return reply;
    },
  },
  {
    method: 'GET',
    path: /^\/panel\/registro$/,
    access: 'anyone',
    async run(visit) {
      if (visit.account) return redirect(visit, '/panel/');
      return pageReply(visit, STATUS.ok, { title: 'Crear una cuenta', body: signupView({ csrf: csrfOf(visit), freeCredits: visit.settings.freeCredits }) });
    },
  },
  {
    method: 'POST',
    path: /^\/panel\/registro$/,
    access: 'anyone',
    async run(visit, _id, form) {
      const { store, freeCredits } = visit.settings;
      const name = checkName(form.get('nombre'), 'account');
      const email = checkEmail(form.get('correo'));
      const password = checkPassword(form.get('contrasena'));
      const again = (status: number, errors: { name?: string; email?: string; password?: string; form?: string }, extra: Record<string, string> = {}) =>
        pageReply(
          visit,
          status,
          {
            title: 'Crear una cuenta',
            errors: Object.values(errors).filter((e): e is string => e !== undefined),
            body: signupView({ csrf: csrfOf(visit), freeCredits, name: form.get('nombre') ?? '', email: form.get('correo') ?? '', errors }),
          },
          extra,
        );
      if (!name.ok || !email.ok || !password.ok) {
        return again(STATUS.unprocessable, { name: name.ok ? undefined : name.message, email: email.ok ? undefined : email.message, password: password.ok ? undefined : password.message });
      }
      const attempt = await store.attempt([{ key: `registro:${visit.address}`, ...LIMITS.signup }], visit.now);
      if (!attempt) return again(STATUS.tooManyRequests, { form: 'Se crearon demasiadas cuentas desde su dirección. Vuelva a intentarlo en una hora.' }, { 'Retry-After': '3600' });
      const account = await store.createAccount({ email: email.value, name: name.value, passwordHash: await hashPassword(password.value), credits: freeCredits });
      // The attempt stays counted: an email that already has an account costs a sign-up too,
      // so neither asking which addresses are registered nor the scrypt work is unbounded.
      if (!account) return again(STATUS.unprocessable, { email: 'Ya hay una cuenta con este correo: entre con su contraseña.' });
      return logIn(visit, account.id, '/panel/?aviso=bienvenida');
    },
  },
  {
    method: 'POST',
    path: /^\/panel\/salir$/,
    access: 'user',
    async run(visit) {
      await visit.settings.store.endSession(sessionKey(visit.cookies.session!));
      visit.cookiesOut.push(clearCookie(SESSION_COOKIE, visit.secure));
      return redirect(visit, '/panel/entrar?aviso=salio');
    },
  },
  {
    method: 'POST',
    path: /^\/panel\/proyectos$/,
    access: 'user',
    async run(visit, _id, form) {
      const { store, maxProjects } = visit.settings;
      const name = checkName(form.get('nombre'), 'project');
      if (!name.ok) return dashboard(visit, { name: form.get('nombre') ?? '', error: name.message });
      // Counted and made in one transaction: creations at once cannot pass the limit together.
      const project = await store.addProject(visit.account!.id, name.value, maxProjects);
      if (!project) return dashboard(visit, { name: name.value, error: `Ya tiene ${maxProjects} proyectos, el máximo por cuenta: borre uno para crear otro.` });
      return redirect(visit, `/panel/proyectos/${project.project}?aviso=creado`);
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/panel/proyectos/${ID}$`),
    access: 'user',
    run: (visit, id) => projectPage(visit, id),
  },
  {
    method: 'POST',
    path: new RegExp(`^/panel/proyectos/${ID}/nombre$`),
    access: 'user',
    async run(visit, id, form) {
      const name = checkName(form.get('nombre'), 'project');
      if (!name.ok) return projectPage(visit, id, { value: form.get('nombre') ?? '', error: name.message });
      if (!(await visit.settings.store.renameProject(visit.account!.id, id, name.value))) return notFound(visit);
      return redirect(visit, `/panel/proyectos/${id}?aviso=renombrado`);
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/panel/proyectos/${ID}/token$`),
    access: 'user',
    async run(visit, id) {
      const project = await visit.settings.store.projectOf(visit.account!.id, id);
      if (!project) return notFound(visit);
      return pageReply(visit, STATUS.ok, { title: `Token nuevo para ${project.name}`, body: confirmRegenerateView(project, csrfOf(visit)) });
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/panel/proyectos/${ID}/token$`),
    access: 'user',
    async run(visit, id) {
      if (!(await visit.settings.store.regenerateProject(visit.account!.id, id))) return notFound(visit);
      return redirect(visit, `/panel/proyectos/${id}?aviso=regenerado`);
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/panel/proyectos/${ID}/borrar$`),
    access: 'user',
    async run(visit, id) {
      const project = await visit.settings.store.projectOf(visit.account!.id, id);
      if (!project) return notFound(visit);
      return pageReply(visit, STATUS.ok, { title: `Borrar ${project.name}`, body: confirmDeleteView(project, csrfOf(visit)) });
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/panel/proyectos/${ID}/borrar$`),
    access: 'user',
    async run(visit, id) {
      if (!(await visit.settings.store.deleteProject(visit.account!.id, id))) return notFound(visit);
      return redirect(visit, '/panel/?aviso=borrado');
    },
  },
  {
    method: 'GET',
    path: /^\/panel\/admin$/,
    access: 'admin',
    run: (visit) => adminPage(visit),
  },
  {
    method: 'POST',
    path: new RegExp(`^/panel/admin/cuentas/${ID}/creditos$`),
    access: 'admin',
    async run(visit, id, form) {
      const credits = checkCredits(form.get('creditos'));
      if (!credits.ok) return adminPage(visit, [credits.message]);
      if (!(await visit.settings.store.grant(id, credits.value))) return notFound(visit);
      return redirect(visit, `/panel/admin?aviso=creditos#cuenta-${id}`);
    },
  },
  {
    method: 'GET',
    path: new RegExp(`^/panel/admin/cuentas/${ID}/estado$`),
    access: 'admin',
    async run(visit, id) {
      const account = await visit.settings.store.account(id);
      if (!account) return notFound(visit);
      if (account.disabled || id === visit.account!.id) return redirect(visit, `/panel/admin#cuenta-${id}`);
      return pageReply(visit, STATUS.ok, { title: `Desactivar ${account.name}`, body: confirmDisableView(account, csrfOf(visit)) });
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/panel/admin/cuentas/${ID}/estado$`),
    access: 'admin',
    async run(visit, id, form) {
      const wanted = form.get('desactivar');
      if (wanted !== 'si' && wanted !== 'no') return adminPage(visit, ['Elija si la cuenta se desactiva o se activa.']);
      if (id === visit.account!.id) return adminPage(visit, ['No puede desactivar su propia cuenta.']);
      if (!(await visit.settings.store.setDisabled(id, wanted === 'si'))) return notFound(visit);
      return redirect(visit, `/panel/admin?aviso=${wanted === 'si' ? 'desactivada' : 'activada'}#cuenta-${id}`);
    },
  },
];

/**
 * The page a panel address belongs to, read with GET: the address itself when it has a GET
 * route, else the nearest one above it (`/panel/proyectos/7/nombre` → `/panel/proyectos/7`,
 * `/panel/proyectos` → `/panel/`). A failed form's page says it is there, and a GET of a
 * form-only address (a reload, a bookmark) is sent there instead of "Método no permitido".
 */
export function readableAt(path: string): string {
  for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) {
    const candidate = path.slice(0, at) || '/';
    for (const shape of [candidate, `${candidate}/`]) {
      if (ROUTES.some((route) => route.method === 'GET' && route.path.test(shape))) return shape;
    }
  }
  return '/panel/';
}

/**
 * Where a log-in may go next: a panel address of this origin (path and query, no `aviso`),
 * never another site's (`//other`, `/\\other`), and nothing unbounded. Undefined otherwise.
 */
export function returnTo(given: string | null | undefined): string | undefined {
  if (typeof given !== 'string' || given.length > 512 || !given.startsWith('/panel/') || given.includes('//') || /[\\\s]/.test(given)) return undefined;
  const url = new URL(given, 'http://panel.invalid');
  url.searchParams.delete('aviso');
  const address = `${url.pathname}${url.search}`;
  return address === '/panel/' || address.startsWith('/panel/entrar') || address.startsWith('/panel/registro') ? undefined : address;
}

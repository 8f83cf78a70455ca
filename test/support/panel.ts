/**
 * The control panel over real HTTP, for tests: a client that keeps its own cookies (as a
 * browser does), opens a new connection for every request (so that a server's workers take
 * turns), reads forms' CSRF tokens from the pages, and can be told to send exactly what an
 * attacker would (no token, another's token, another origin, any id).
 */
import { request } from 'node:http';
import { execFile } from 'node:child_process';
import { CLI } from '../helpers.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
  /** Set-Cookie values of this answer. */
  setCookies: string[];
  location: string | undefined;
}

/** One request on a connection of its own. */
export function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, agent: false, headers: { connection: 'close', ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const setCookies = res.headers['set-cookie'] ?? [];
          resolve({ status: res.statusCode!, headers: res.headers as Record<string, string | string[]>, body: Buffer.concat(chunks).toString('utf8'), setCookies, location: res.headers.location });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The value of the first hidden csrf field of a page. */
export function csrfOf(page: string): string {
  const found = /name="csrf" value="([^"]+)"/.exec(page);
  if (!found) throw new Error(`no form with a CSRF token in this page:\n${page.slice(0, 2000)}`);
  return found[1]!;
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export interface PostOptions {
  /** The CSRF token to send: the page's (default), another one, or none (false). */
  csrf?: string | false;
  /** The page whose form is posted (for its token); default the path itself with GET. */
  from?: string;
  headers?: Record<string, string>;
}

/** A browser of one person: a cookie jar and, optionally, the address a proxy says it comes from. */
export class PanelClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {};
  }

  private keep(answer: Answer): Answer {
    for (const line of answer.setCookies) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (attributes.some((a) => a.trim().toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.keep(await send(this.base, 'GET', path, { ...this.headers, ...this.cookieHeader(), ...headers }));
  }

  /** Posts `fields` as the page at `options.from` (default `path`'s page) would, with its CSRF token unless told otherwise. */
  async post(path: string, fields: Record<string, string>, options: PostOptions = {}): Promise<Answer> {
    let csrf = options.csrf;
    if (csrf === undefined) csrf = csrfOf((await this.get(options.from ?? path)).body);
    const body = form(csrf === false ? fields : { csrf, ...fields });
    return this.keep(
      await send(this.base, 'POST', path, { ...this.headers, ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: this.base, ...options.headers }, body),
    );
  }

  signUp(name: string, email: string, password: string): Promise<Answer> {
    return this.post('/panel/registro', { nombre: name, correo: email, contrasena: password });
  }

  logIn(email: string, password: string): Promise<Answer> {
    return this.post('/panel/entrar', { correo: email, contrasena: password });
  }

  /** Creates a project; its id (from the page the panel goes to). */
  async createProject(name: string): Promise<number> {
    const answer = await this.post('/panel/proyectos', { nombre: name }, { from: '/panel/' });
    const id = /^\/panel\/proyectos\/(\d+)\?aviso=creado$/.exec(answer.location ?? '')?.[1];
    if (!id) throw new Error(`no project was created: ${answer.status} ${answer.body.slice(0, 500)}`);
    return Number(id);
  }

  /** The token shown on a project's page. */
  async tokenOf(project: number): Promise<string> {
    const page = await this.get(`/panel/proyectos/${project}`);
    const token = /id="token" class="token" type="text" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no token on the page of project ${project}: ${page.status}`);
    return token;
  }
}

/** `cpmx panel create-admin`, the password given on standard input. */
export function createAdmin(registry: string, email: string, password: string): Promise<{ code: number; stderr: string }> {
  return panelCli('create-admin', registry, email, password);
}

/** `cpmx panel ACTION --registry R --email E`, the password given on standard input. */
export function panelCli(action: string, registry: string, email: string, password: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, 'panel', action, '--registry', registry, '--email', email], { encoding: 'utf8' }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr });
    });
    child.stdin!.end(`${password}\n`);
  });
}

/**
 * The panel's command line: `cpmx panel create-admin` reading the password from a real
 * terminal (a pseudo-terminal made by util-linux's `script`) without echoing it, or from a
 * pipe, never from the arguments; and `cpmx serve`'s panel options.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers.js';
import { createAdmin, PanelClient } from '../support/panel.js';
import { startServe } from '../support/serve.js';

const dir = tempDir();

/** Runs ARGS of cpmx on a pseudo-terminal, typing each answer once its prompt is on the screen; the terminal's whole output and the exit code. */
function onTerminal(args: string[], answers: { after: string; type: string }[]): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, CLI, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', quoted, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let seen = 0;
  let next = 0;
  const onOutput = (chunk: Buffer) => {
    screen += chunk.toString();
    // Typed only after its prompt, as a person would: by then the terminal's echo is off.
    while (next < answers.length) {
      const at = screen.indexOf(answers[next]!.after, seen);
      if (at < 0) break;
      seen = at + answers[next]!.after.length;
      child.stdin.write(answers[next++]!.type);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`cannot run \`script\` (util-linux) for a pseudo-terminal: ${error.message}; install bsdutils`)));
    child.on('exit', (code) => resolve({ code, screen }));
  });
}

function accountOf(path: string, email: string): { admin: number; password_hash: string } | undefined {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT admin, password_hash FROM accounts WHERE email = ?').get(email) as { admin: number; password_hash: string } | undefined;
  } finally {
    db.close();
  }
}

describe('cpmx panel create-admin', () => {
  it('asks for the password twice on a terminal, without echo, and makes an administrator who can log in', async () => {
    const registry = join(dir, `${randomUUID()}.db`);
    const password = 'secreto-de-terminal-123';
    const { code, screen } = await onTerminal(['panel', 'create-admin', '--registry', registry, '--email', 'Jefa@Ejemplo.mx'], [
      { after: 'Password for jefa@ejemplo.mx: ', type: `${password}\r` },
      { after: 'Again, to be sure: ', type: `${password}\r` },
    ]);
    expect(code).toBe(0);
    expect(screen).toContain('Password for jefa@ejemplo.mx: ');
    expect(screen).toContain('jefa@ejemplo.mx is an administrator (account 1)');
    expect(screen).not.toContain(password);
    expect(screen).not.toContain('secreto');
    const stored = accountOf(registry, 'jefa@ejemplo.mx')!;
    expect(stored.admin).toBe(1);
    expect(stored.password_hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(stored.password_hash).not.toContain(password);

    const served = await startServe(['--registry', registry, '--panel']);
    const client = new PanelClient(served.url);
    expect((await client.logIn('jefa@ejemplo.mx', password)).location).toBe('/panel/');
    expect((await client.get('/panel/admin')).status).toBe(200);
    await served.stop();
  });

  it('refuses two different passwords on a terminal, and changes nothing', async () => {
    const registry = join(dir, `${randomUUID()}.db`);
    const { code, screen } = await onTerminal(['panel', 'create-admin', '--registry', registry, '--email', 'otra@ejemplo.mx'], [
      { after: 'Password for otra@ejemplo.mx: ', type: 'primera-contraseña\r' },
      { after: 'Again, to be sure: ', type: 'segunda-contraseña\r' },
    ]);
    expect(code).toBe(2);
    expect(screen).toContain('the two passwords differ; nothing was changed');
    expect(screen).not.toContain('contraseña');
  });

  it('takes the first line of a pipe; an existing account becomes an administrator with the new password', async () => {
    const registry = join(dir, `${randomUUID()}.db`);
    expect(await createAdmin(registry, 'uno@ejemplo.mx', 'primera contraseña')).toMatchObject({ code: 0 });
    const server = await startServe(['--registry', registry, '--panel']);
    const user = new PanelClient(server.url);
    expect((await user.signUp('Usuaria', 'dos@ejemplo.mx', 'contraseña de usuaria')).status).toBe(303);
    expect((await user.get('/panel/admin')).status).toBe(404);
    const promoted = await createAdmin(registry, 'DOS@ejemplo.mx', 'la nueva contraseña');
    expect(promoted).toMatchObject({ code: 0 });
    expect(promoted.stderr).toMatch(/dos@ejemplo\.mx already had an account \(\d+\): it is now an administrator, with the password just given/);
    const again = new PanelClient(server.url);
    expect((await again.logIn('dos@ejemplo.mx', 'contraseña de usuaria')).status).toBe(401);
    expect((await again.logIn('dos@ejemplo.mx', 'la nueva contraseña')).location).toBe('/panel/');
    expect((await again.get('/panel/admin')).status).toBe(200);
    await server.stop();
  });

  it('refuses a short password, a bad address, and a password given as an argument', async () => {
    const registry = join(dir, `${randomUUID()}.db`);
    const short = await createAdmin(registry, 'corta@ejemplo.mx', 'corta');
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/the password must have 10 to 256 characters; nothing was changed/);
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    expect(await run(['panel', 'create-admin', '--registry', registry, '--email', 'no es un correo'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/"no es un correo" is not an email address/) });
    expect(await run(['panel', 'create-admin', '--registry', registry, '--email', 'a@ejemplo.mx', 'mi-contraseña-larga'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/takes no positional argument, got: mi-contraseña-larga\nThe password is read from the terminal or standard input, never from the arguments/),
    });
    expect(await run(['panel', 'create-admin', '--registry', registry, '--email', 'a@ejemplo.mx', '--password', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option '--password'/) });
    expect(await run(['panel', 'create-admin', '--email', 'a@ejemplo.mx'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --registry/) });
    expect(await run(['panel', 'hacer'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown panel action "hacer": use create-admin/) });
    // Refused before the registry was opened: not even its file was made.
    expect(existsSync(registry)).toBe(false);
  });
});

describe('cpmx serve and the panel', () => {
  it('refuses --panel without a registry, and the panel options without --panel', async () => {
    await expect(startServe(['--panel'], { env: { ...process.env, CPMX_REGISTRY: '' } })).rejects.toThrow(/--panel needs a registry: add --registry FILE\|URL \(or set CPMX_REGISTRY\)/);
    await expect(startServe(['--registry', join(dir, 'x.db'), '--free-credits', '5'])).rejects.toThrow(/--free-credits is an option of the control panel: add --panel/);
    await expect(startServe(['--registry', join(dir, 'x.db'), '--panel-host', 'panel.ejemplo.mx'])).rejects.toThrow(/--panel-host is an option of the control panel: add --panel/);
    await expect(startServe(['--registry', join(dir, 'x.db'), '--panel', '--panel-host', 'panel.ejemplo.mx,http://otro/'])).rejects.toThrow(/--panel-host: "http:\/\/otro\/" is not a host name/);
  });

  it('gives a new account the credits of --free-credits, and has no panel without --panel', async () => {
    const registry = join(dir, `${randomUUID()}.db`);
    expect(await createAdmin(registry, 'admin@ejemplo.mx', 'contraseña larga')).toMatchObject({ code: 0 });
    const withPanel = await startServe(['--registry', registry, '--panel', '--free-credits', '7']);
    const client = new PanelClient(withPanel.url);
    expect((await client.signUp('Siete', 'siete@ejemplo.mx', 'contraseña larga')).status).toBe(303);
    expect((await client.get('/panel/')).body).toContain('<strong>7</strong> créditos disponibles');
    await withPanel.stop();
    const without = await startServe(['--registry', registry]);
    const answer = await new PanelClient(without.url).get('/panel/entrar');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ error: true, code_error: 111 });
    await without.stop();
  });
});

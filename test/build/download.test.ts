/**
 * The catalog downloader against a local replica of the official export page (the live site is
 * not reachable from the test machines): the form read from the page and posted back with its
 * hidden fields and cookie, the zip checked and written atomically, and each way it can fail.
 * Timeouts are short options and every wait is on an event, never on a fixed delay.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildArtifact } from '../../build/build.js';
import {
  DownloadError,
  downloadCatalog,
  formatProgress,
  readExportForm,
  terminalProgress,
  type DownloadErrorKind,
  type DownloadOptions,
} from '../../build/download/index.js';
import { loadCatalog } from '../../src/client/catalog-source.js';
import { FIXTURE, tempDir } from '../helpers.js';
import { catalogText, catalogZip, CorreosReplica, errorPage, officialPage, PAGE_PATH, type Answer } from '../support/correos-replica.js';

const catalog = readFileSync(FIXTURE);
const dir = tempDir();
let replica: CorreosReplica;
let outCount = 0;

/** A fresh output path in its own directory, so leftovers can be listed. */
function freshOut(): string {
  const folder = join(dir, `out-${++outCount}`);
  mkdirSync(folder);
  return join(folder, 'CPdescargatxt.zip');
}

/** Short bounds so a failing test ends quickly; no retry unless a test asks for it. */
function options(out: string, extra: Partial<DownloadOptions> = {}): DownloadOptions {
  return { out, pageUrl: replica.pageUrl, idleTimeoutMs: 2_000, connectTimeoutMs: 2_000, totalTimeoutMs: 20_000, retries: 0, retryDelayMs: 0, ...extra };
}

async function failure(promise: Promise<unknown>, kind: DownloadErrorKind): Promise<DownloadError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DownloadError);
  expect((error as DownloadError).kind, (error as Error).message).toBe(kind);
  return error as DownloadError;
}

/** A server of its own, standing for another site. */
async function otherSite(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(request);
    answer(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  };
  return { origin, seen, close };
}

/** Headers, then part of the zip, then the socket closes: a connection cut mid-body. */
const cutMidBody: Answer = (_request, response) => {
  const zip = catalogZip(catalog, '00');
  response.writeHead(200, { 'content-type': 'application/x-zip-compressed', 'content-length': zip.length });
  // Closed once the part is on its way, so the client reads headers and part before the end.
  response.write(zip.subarray(0, 200), () => response.socket?.destroy());
};

/** Headers and part of the body, then silence. */
const stallMidBody: Answer = (_request, response) => {
  const zip = catalogZip(catalog, '00');
  response.writeHead(200, { 'content-type': 'application/x-zip-compressed', 'content-length': zip.length });
  response.write(zip.subarray(0, 200));
};

const neverAnswer: Answer = () => {};

beforeAll(async () => {
  replica = await CorreosReplica.start({ catalog });
});
afterAll(() => replica.close());
afterEach(() => replica.reset());

describe('the export form read from the page', () => {
  const pageUrl = new URL('https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx');
  const hidden = { __EVENTTARGET: '', __EVENTARGUMENT: '', __LASTFOCUS: '', __VIEWSTATE: '/wEPa+b/c==', __VIEWSTATEGENERATOR: 'BE1A6D2E', __EVENTVALIDATION: '/wEWx+y/z=' };
  const names = { state: 'cboEdo', format: 'rblTipo', button: 'btnDescarga' };

  it('finds the state list, the format, the button and every hidden field, and posts them as a browser does', () => {
    const form = readExportForm(officialPage(hidden, names), pageUrl);
    expect(form.action.href).toBe(pageUrl.href);
    expect(form.fields).toEqual({ ...names, hidden: Object.keys(hidden) });
    expect(form.states).toHaveLength(33);
    expect(form.states[0]).toEqual({ key: '00', label: '---------- T o d o s ----------' });
    expect(form.states.find((s) => s.key === '16')?.label).toBe('Michoacán de Ocampo');
    const posted = new URLSearchParams(form.body('09'));
    expect(Object.fromEntries(posted)).toEqual({ ...hidden, cboEdo: '09', rblTipo: 'txt', 'btnDescarga.x': '1', 'btnDescarga.y': '1' });
    // One value per name: the format radios are sent once, as a browser sends the checked one.
    expect(posted.getAll('rblTipo')).toEqual(['txt']);
  });

  it('reads controls by what they are when the names change, and sends a <button> by its value', () => {
    const html = `<html><body><FORM method=POST action="/otra/Exportar.aspx?x=1">
      <INPUT type=hidden name=__VIEWSTATE value="vs&amp;1">
      <input type="text" name="txtBuscar" value="Jalisco &#233;">
      <input type="checkbox" name="chkAviso" checked>
      <input type="checkbox" name="chkOtro">
      <select name="ddlEntidad"><option value="00" selected>Todos</option><option value="14">Jalisco</option></select>
      <select name="ddlFormato"><option value="xls">Excel</option><option value="txt">Texto</option></select>
      <button type="submit" name="cmdBajar" value="Bajar">Descargar</button>
    </FORM></body></html>`;
    const form = readExportForm(html, pageUrl);
    expect(form.fields).toEqual({ state: 'ddlEntidad', format: 'ddlFormato', button: 'cmdBajar', hidden: ['__VIEWSTATE'] });
    expect(form.action.href).toBe('https://www.correosdemexico.gob.mx/otra/Exportar.aspx?x=1');
    expect([...new URLSearchParams(form.body('14'))]).toEqual([
      ['__VIEWSTATE', 'vs&1'],
      ['txtBuscar', 'Jalisco é'],
      ['chkAviso', 'on'],
      ['ddlEntidad', '14'],
      ['ddlFormato', 'txt'],
      ['cmdBajar', 'Bajar'],
    ]);
  });

  it('never takes a control from a comment, a script or outside the form, nor a disabled one', () => {
    const html = `<form method="post" action="">
      <!-- <input type="hidden" name="__VIEWSTATE" value="commented"> -->
      <script>var s = '<input type="hidden" name="injected" value="x">';</script>
      <input type="hidden" name="__VIEWSTATE" value="real">
      <input type="hidden" name="disabledOne" value="x" disabled>
      <select name="cboEdo"><option value="00">Todos</option></select>
      <input type="radio" name="rblTipo" value="txt">
      <input type="image" name="btnDescarga" src="d.png">
    </form><input type="hidden" name="outside" value="x">`;
    const posted = new URLSearchParams(readExportForm(html, pageUrl).body('00'));
    expect([...posted.keys()]).toEqual(['__VIEWSTATE', 'cboEdo', 'rblTipo', 'btnDescarga.x', 'btnDescarga.y']);
    expect(posted.get('__VIEWSTATE')).toBe('real');
  });

  const good = officialPage(hidden, names);
  it.each([
    ['no form at all', '<html><head><title>Sitio en mantenimiento</title></head><body>Volvemos pronto</body></html>', /\("Sitio en mantenimiento"\) has no form/],
    ['the state list gone', good.replace(/<select[\s\S]*?<\/select>/, '<input type="text" name="txtEstado">'), /has no state list/],
    ['no __VIEWSTATE', good.replace(/<input type="hidden" name="__VIEWSTATE"[^>]*>/, ''), /has no __VIEWSTATE hidden field/],
    ['no txt format', good.replace('value="txt"', 'value="csv"'), /offers no "txt" format in rblTipo/],
    ['no button', good.replace(/<input type="image"[^>]*>/, ''), /has no download button/],
    ['a form sent by GET', good.replace('method="post"', 'method="get"'), /sends its form by GET/],
    ['a form posting to another site', good.replace('action="./CodigoPostal_Exportar.aspx"', 'action="https://elsewhere.example/collect"'), /posts its form to another site \(https:\/\/elsewhere\.example\)/],
  ])('refuses a page with %s as page-changed, saying what is missing', (_what, html, message) => {
    let error: unknown;
    try {
      readExportForm(html, pageUrl);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).kind).toBe('page-changed');
    expect((error as DownloadError).message).toMatch(message);
  });
});

describe('downloading from the replica', () => {
  it('writes the zip the site served, byte for byte, and it builds', async () => {
    const out = freshOut();
    const result = await downloadCatalog(options(out));
    const served = replica.served.at(-1)!;
    expect(readFileSync(out).equals(served)).toBe(true);
    expect(result).toMatchObject({ path: out, bytes: served.length, state: '00', attempts: 1, pageUrl: replica.pageUrl });
    expect(result.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.member).toMatchObject({ name: 'CPdescarga.txt', bytes: catalog.length });
    expect(result.member.header).toMatch(/^d_codigo\|d_asenta\|/);
    // The catalog inside is the fixture's Latin-1 bytes, untouched.
    expect(Buffer.from(unzipSync(readFileSync(out))['CPdescarga.txt']!).equals(catalog)).toBe(true);
    expect(readdirSync(join(out, '..'))).toEqual(['CPdescargatxt.zip']);

    const artifact = join(out, '..', 'cpmx.msgpack');
    await buildArtifact({ source: out, out: artifact });
    expect(loadCatalog(artifact).header).toMatchObject({ rows: 22, codes: 15, states: 6 });
  });

  it('posts back every hidden field the GET gave, with the session cookie it set', async () => {
    await downloadCatalog(options(freshOut()));
    const [get, post] = replica.requests;
    expect(get?.method).toBe('GET');
    expect(post?.method).toBe('POST');
    const issued = replica.issued.at(-1)!;
    expect(post!.cookie).toBe(`ASP.NET_SessionId=${issued.session}`);
    for (const [name, value] of Object.entries(issued.hidden)) expect(post!.form!.get(name), name).toBe(value);
    expect(post!.form!.get('cboEdo')).toBe('00');
    expect(post!.form!.get('rblTipo')).toBe('txt');
    expect(post!.form!.has('btnDescarga.x')).toBe(true);
  });

  it('downloads one state, and refuses a state the page does not offer', async () => {
    const out = freshOut();
    const result = await downloadCatalog(options(out, { state: '09' }));
    expect(replica.posts().at(-1)!.form!.get('cboEdo')).toBe('09');
    const text = Buffer.from(unzipSync(readFileSync(out))['CPdescarga.txt']!);
    expect(text.equals(catalogText(catalog, '09'))).toBe(true);
    expect(result.member.bytes).toBe(text.length);
    expect(text.toString('latin1').split('\r\n').filter((l) => /^\d{5}\|/.test(l))).toHaveLength(10);

    const other = freshOut();
    const unknown = await failure(downloadCatalog(options(other, { state: '33' })), 'unknown-state');
    expect(unknown.message).toMatch(/offers no state 33; it offers 00 \(-+ T o d o s -+\), 01 \(Aguascalientes\)/);
    expect(existsSync(other)).toBe(false);

    const before = replica.requests.length;
    const malformed = await failure(downloadCatalog(options(other, { state: 'Jalisco' })), 'unknown-state');
    expect(malformed.message).toMatch(/two digits/);
    expect(replica.requests.length).toBe(before);
  });

  it('follows a page whose fields were renamed, reading the names from it', async () => {
    const renamed = await CorreosReplica.start({ catalog, names: { state: 'ddlEstado', format: 'rbFormato', button: 'imgBajar' } });
    try {
      const out = freshOut();
      const result = await downloadCatalog({ ...options(out), pageUrl: renamed.pageUrl });
      expect(result.fields).toMatchObject({ state: 'ddlEstado', format: 'rbFormato', button: 'imgBajar' });
      expect(readFileSync(out).equals(renamed.served.at(-1)!)).toBe(true);
    } finally {
      await renamed.close();
    }
  });

  it('reports progress up to the announced size, and an unknown total when none is announced', async () => {
    const calls: Array<[number, number | undefined]> = [];
    await downloadCatalog(options(freshOut(), { onProgress: (received, total) => calls.push([received, total]) }));
    const size = replica.served.at(-1)!.length;
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.at(-1)).toEqual([size, size]);
    expect(calls.every(([received], i) => i === 0 || received > calls[i - 1]![0])).toBe(true);

    // Chunked, no Content-Length: the total is unknown, the bytes still counted.
    const zip = catalogZip(catalog, '00');
    replica.override('POST', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-zip-compressed' });
      response.write(zip.subarray(0, 100));
      response.end(zip.subarray(100));
    });
    const unknownTotal: Array<[number, number | undefined]> = [];
    const out = freshOut();
    await downloadCatalog(options(out, { onProgress: (received, total) => unknownTotal.push([received, total]) }));
    expect(unknownTotal.at(-1)).toEqual([zip.length, undefined]);
    expect(readFileSync(out).equals(zip)).toBe(true);
  });
});

describe('failures', () => {
  it('a page that changed shape: page-changed, nothing posted, the manual steps given', async () => {
    const out = freshOut();
    const page = replica.page;
    replica.page = () => '<html><head><title>Consulta CP</title></head><body><form method="post"><input type="submit" name="b" value="Buscar"></form></body></html>';
    try {
      const error = await failure(downloadCatalog(options(out, { retries: 2 })), 'page-changed');
      expect(error.message).toMatch(/has no state list/);
      expect(error.attempts).toBe(1); // a changed page is not retried
      expect(error.manualSteps).toBeDefined();
    } finally {
      replica.page = page;
    }
    expect(replica.posts()).toHaveLength(0);
    expect(existsSync(out)).toBe(false);
  });

  it('an HTML error page instead of the zip: not-a-zip, naming the page, not retried', async () => {
    const out = freshOut();
    replica.override('POST', (_request, response) => errorPage(response, 200, 'Error en la consulta'));
    const error = await failure(downloadCatalog(options(out, { retries: 2 })), 'not-a-zip');
    expect(error.message).toMatch(/answered an HTML page \("Error en la consulta"\) instead of the zip/);
    expect(replica.posts()).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('a redirect to an error page after the post: not-a-zip', async () => {
    const errorPath = '/SSLServicios/Error.aspx?aspxerrorpath=/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';
    replica.override('POST', (_request, response) => {
      replica.override('GET', (_r, page) => errorPage(page, 200, 'Lo sentimos, ocurrió un error'));
      response.writeHead(302, { location: errorPath });
      response.end();
    });
    const error = await failure(downloadCatalog(options(freshOut())), 'not-a-zip');
    expect(error.message).toMatch(/\("Lo sentimos, ocurrió un error"\) instead of the zip/);
    expect(replica.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${PAGE_PATH}`, `POST ${PAGE_PATH}`, `GET ${errorPath}`]);
  });

  it('a post the site did not accept comes back as the form again: not-a-zip, said so', async () => {
    replica.override('POST', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(replica.page({ __VIEWSTATE: 'again' }));
    });
    const error = await failure(downloadCatalog(options(freshOut())), 'not-a-zip');
    expect(error.message).toMatch(/the form page again: the site did not accept the posted form/);
  });

  const bareZip = (files: Record<string, Uint8Array>) => Buffer.from(zipSync(files));
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const header = 'd_codigo|d_asenta|d_tipo_asenta|D_mnpio|d_estado|d_ciudad|d_CP|c_estado|c_oficina|c_CP|c_tipo_asenta|c_mnpio|id_asenta_cpcons|d_zona|c_cve_ciudad';
  it.each([
    ['no CPdescarga.txt', () => bareZip({ 'CPdescarga.xls': catalog }), /holds no CPdescarga\.txt/],
    ['two CPdescarga.txt', () => bareZip({ 'CPdescarga.txt': catalog, 'otra/CPdescarga.txt': catalog }), /holds 2 CPdescarga\.txt members/],
    ['a text without the header', () => bareZip({ 'CPdescarga.txt': latin1('Aviso\r\ncodigo|asentamiento\r\n01000|San Ángel\r\n') }), /lacks the catalog header: line 2 is "codigo\|asentamiento"/],
    ['the header and no row', () => bareZip({ 'CPdescarga.txt': latin1(`Aviso\r\n${header}\r\n`) }), /has the header but no settlement/],
    ['a truncated zip', () => catalogZip(catalog, '00').subarray(0, 300), /damaged or incomplete/],
    ['a member claiming 4 GB', () => claimsHugeMember(catalogZip(catalog, '00')), /claims 4294967280 bytes, over the limit/],
  ])('a zip with %s: bad-catalog, nothing written', async (_what, zip, message) => {
    const out = freshOut();
    const zipFor = replica.zipFor;
    replica.zipFor = zip;
    try {
      const error = await failure(downloadCatalog(options(out)), 'bad-catalog');
      expect(error.message).toMatch(message);
    } finally {
      replica.zipFor = zipFor;
    }
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });

  it('accepts a catalog whose lines end in LF or a lone CR, as the build reads it', async () => {
    const zipFor = replica.zipFor;
    try {
      for (const ending of ['\n', '\r']) {
        replica.zipFor = () => bareZip({ 'CPdescarga.txt': latin1(catalog.toString('latin1').replaceAll('\r\n', ending)) });
        const out = freshOut();
        expect((await downloadCatalog(options(out))).member.header).toMatch(/^d_codigo\|d_asenta\|/);
        const artifact = join(out, '..', 'cpmx.msgpack');
        await buildArtifact({ source: out, out: artifact });
        expect(loadCatalog(artifact).header).toMatchObject({ rows: 22, codes: 15 });
      }
    } finally {
      replica.zipFor = zipFor;
    }
  });

  it('a page that never answers: timeout once the idle time passes', async () => {
    replica.override('GET', neverAnswer);
    const out = freshOut();
    const error = await failure(downloadCatalog(options(out, { idleTimeoutMs: 150 })), 'timeout');
    expect(error.message).toMatch(/sent nothing for 150 ms/);
    expect(error.transient).toBe(true);
    expect(replica.gets()).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('a zip that stalls mid-body: timeout, nothing written', async () => {
    replica.override('POST', stallMidBody);
    const out = freshOut();
    await failure(downloadCatalog(options(out, { idleTimeoutMs: 500 })), 'timeout');
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });

  it('the total timeout ends a download that is still waiting, with no retry after it', async () => {
    replica.override('GET', neverAnswer);
    const error = await failure(downloadCatalog(options(freshOut(), { idleTimeoutMs: 60_000, totalTimeoutMs: 150, retries: 3 })), 'timeout');
    expect(error.message).toMatch(/did not finish within 150 ms/);
    expect(error.attempts).toBe(1);
  });

  it('a connection cut mid-body: retried, then a clear cut-connection error', async () => {
    replica.override('POST', cutMidBody, 2);
    const out = freshOut();
    const retried: string[] = [];
    const error = await failure(downloadCatalog(options(out, { retries: 1, onRetry: ({ error }) => retried.push(error.kind) })), 'cut-connection');
    expect(error.message).toMatch(/was cut after \d+ bytes of the \d+ announced \(after 2 attempts\)/);
    expect(error.attempts).toBe(2);
    expect(retried).toEqual(['cut-connection']);
    // Each attempt starts over from the page: a fresh session and view state.
    expect(replica.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'POST']);
    expect(existsSync(out)).toBe(false);
  });

  it('a body shorter than its Content-Length, closed cleanly, is a cut connection too', async () => {
    replica.override('POST', (_request, response) => {
      // Written on the socket by hand: Node's server would refuse to send a short body.
      response.socket!.end(`HTTP/1.1 200 OK\r\nContent-Type: application/x-zip-compressed\r\nContent-Length: 5000\r\n\r\n${'PK'.padEnd(100, 'x')}`);
    });
    await failure(downloadCatalog(options(freshOut())), 'cut-connection');
  });

  it('a 503 followed by success: the retry works', async () => {
    replica.override('GET', (_request, response) => errorPage(response, 503, 'Service Unavailable'));
    const retried: Array<{ attempt: number; status: number | undefined }> = [];
    const out = freshOut();
    const result = await downloadCatalog(options(out, { retries: 2, onRetry: ({ attempt, error }) => retried.push({ attempt, status: error.status }) }));
    expect(result.attempts).toBe(2);
    expect(retried).toEqual([{ attempt: 1, status: 503 }]);
    expect(readFileSync(out).equals(replica.served.at(-1)!)).toBe(true);
  });

  it('a 404 is not retried', async () => {
    const error = await failure(downloadCatalog(options(freshOut(), { pageUrl: `${replica.origin}/SSLServicios/ConsultaCP/Otra.aspx`, retries: 2 })), 'http-status');
    expect(error.status).toBe(404);
    expect(error.attempts).toBe(1);
    expect(error.message).toMatch(/answered HTTP 404 \("The resource cannot be found\."\)/);
  });

  it('a site that cannot be reached: unreachable, retried, with the steps to download by hand', async () => {
    const closed = await otherSite(() => {});
    await closed.close();
    const pageUrl = `${closed.origin}/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx`;
    const out = freshOut();
    const error = await failure(downloadCatalog(options(out, { pageUrl, retries: 1 })), 'unreachable');
    expect(error.attempts).toBe(2);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).toContain(`open ${pageUrl} in a browser`);
    expect(error.message).toMatch(/choose "Todos" .* "Txt".* save CPdescargatxt\.zip, then run: cpmx build --source CPdescargatxt\.zip/);
    expect(existsSync(out)).toBe(false);
  });

  it('the caller can abort; the download stops where it waits', async () => {
    replica.override('GET', neverAnswer);
    const controller = new AbortController();
    replica.once('request', () => controller.abort());
    const out = freshOut();
    const error = await failure(downloadCatalog(options(out, { signal: controller.signal, retries: 2 })), 'aborted');
    expect(error.manualSteps).toBeUndefined();
    expect(existsSync(out)).toBe(false);
  });

  it('a failed download never replaces a good file and leaves nothing beside it', async () => {
    const out = freshOut();
    const good = replica.zipFor('00');
    writeFileSync(out, good);
    const failures: Array<[Answer, DownloadErrorKind]> = [
      [cutMidBody, 'cut-connection'],
      [stallMidBody, 'timeout'],
      [(_request, response) => errorPage(response, 200, 'Error'), 'not-a-zip'],
      [(_request, response) => errorPage(response, 500, 'Error'), 'http-status'],
    ];
    for (const [answer, kind] of failures) {
      replica.override('POST', answer);
      await failure(downloadCatalog(options(out, { idleTimeoutMs: 500 })), kind);
      expect(readFileSync(out).equals(good), kind).toBe(true);
      expect(readdirSync(join(out, '..')), kind).toEqual(['CPdescargatxt.zip']);
    }
  });

  it('an output path that cannot be written: write, with the path and the reason', async () => {
    const out = freshOut();
    mkdirSync(out);
    const error = await failure(downloadCatalog(options(out)), 'write');
    expect(error.message).toContain(out);
    expect(error.manualSteps).toBeUndefined();
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(join(out, '..'))).toEqual(['CPdescargatxt.zip']);
  });
});

describe('where it should not go', () => {
  it('never sends the session cookie to another site a redirect leads to', async () => {
    const zip = catalogZip(catalog, '00');
    const cdn = await otherSite((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
      response.end(zip);
    });
    try {
      replica.override('POST', (_request, response) => {
        response.writeHead(302, { location: `${cdn.origin}/descargas/CPdescargatxt.zip`, 'set-cookie': 'otra=1; path=/' });
        response.end();
      });
      const out = freshOut();
      await downloadCatalog(options(out));
      expect(replica.posts().at(-1)!.cookie).toMatch(/ASP\.NET_SessionId=/);
      expect(cdn.seen).toHaveLength(1);
      expect(cdn.seen[0]!.method).toBe('GET');
      expect(cdn.seen[0]!.headers.cookie).toBeUndefined();
      expect(readFileSync(out).equals(zip)).toBe(true);
    } finally {
      await cdn.close();
    }
  });

  it('never posts the form to another site the page names', async () => {
    const collector = await otherSite((_request, response) => response.end());
    const page = replica.page;
    replica.page = (hidden) => page(hidden).replace('action="./CodigoPostal_Exportar.aspx"', `action="${collector.origin}/collect"`);
    try {
      const error = await failure(downloadCatalog(options(freshOut())), 'page-changed');
      expect(error.message).toMatch(/posts its form to another site/);
      expect(collector.seen).toHaveLength(0);
    } finally {
      replica.page = page;
      await collector.close();
    }
  });

  it('follows no redirect to a file: address, nor more than 5 redirects', async () => {
    replica.override('POST', (_request, response) => {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      response.end();
    });
    const toFile = await failure(downloadCatalog(options(freshOut())), 'http-status');
    expect(toFile.message).toMatch(/redirected to file: address/);

    // The post redirects to /loop, which redirects to itself: the sixth redirect is refused.
    replica.override('POST', (_request, response) => {
      replica.override('GET', (_r, again) => {
        again.writeHead(302, { location: '/loop' });
        again.end();
      }, 5);
      response.writeHead(302, { location: '/loop' });
      response.end();
    });
    const loop = await failure(downloadCatalog(options(freshOut())), 'http-status');
    expect(loop.message).toMatch(/redirected more than 5 times \(last to \/loop\)/);
    expect(replica.gets().filter((r) => r.path === '/loop')).toHaveLength(5);
  });

  it('refuses an answer larger than allowed, announced or not, before keeping it', async () => {
    // Larger than the page (~4 KB), so it is the zip that is refused: the catalog padded, stored.
    const large = Buffer.from(zipSync({ 'CPdescarga.txt': catalog, 'relleno.bin': randomBytes(20_000) }, { level: 0 }));
    const zipFor = replica.zipFor;
    replica.zipFor = () => large;
    try {
      const announced = await failure(downloadCatalog(options(freshOut(), { maxBytes: 10_000 })), 'too-large');
      expect(announced.message).toMatch(new RegExp(`sent ${large.length} bytes or more, over the limit of 10000`));
    } finally {
      replica.zipFor = zipFor;
    }
    expect(replica.posts()).toHaveLength(1);

    replica.override('POST', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-zip-compressed' });
      response.end(large);
    });
    const out = freshOut();
    const streamed = await failure(downloadCatalog(options(out, { maxBytes: 10_000 })), 'too-large');
    expect(streamed.message).toMatch(/over the limit of 10000/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('the progress line', () => {
  it('draws a bar with the share and sizes, or the bytes alone when the total is unknown', () => {
    expect(formatProgress(0, 2_000_000)).toBe(`[${'-'.repeat(24)}]   0%  0.0 / 2.0 MB`);
    expect(formatProgress(1_000_000, 2_000_000)).toBe(`[${'#'.repeat(12)}${'-'.repeat(12)}]  50%  1.0 / 2.0 MB`);
    expect(formatProgress(2_000_000, 2_000_000)).toBe(`[${'#'.repeat(24)}] 100%  2.0 / 2.0 MB`);
    expect(formatProgress(1_500_000, undefined)).toBe('1.5 MB');
  });

  it('writes on a terminal only, and only when the line changes', () => {
    const written = (isTTY: boolean) => {
      const out: string[] = [];
      const stream = Object.assign(new Writable({ write: (chunk, _encoding, done) => {
          out.push(String(chunk));
          done();
        } }), { isTTY });
      const progress = terminalProgress(stream, 'Bajando');
      progress.onProgress(100, 1_000_000);
      progress.onProgress(200, 1_000_000); // the same line once rounded: not drawn again
      progress.onProgress(1_000_000, 1_000_000);
      progress.done();
      return out;
    };
    expect(written(false)).toEqual([]);
    expect(written(true)).toEqual([
      `\rBajando ${formatProgress(100, 1_000_000)}\x1b[K`,
      `\rBajando ${formatProgress(1_000_000, 1_000_000)}\x1b[K`,
      '\n',
    ]);
  });
});

/** The zip with its central directory claiming 0xFFFFFFF0 bytes for the member once inflated. */
function claimsHugeMember(zip: Buffer): Buffer {
  const copy = Buffer.from(zip);
  const central = copy.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  copy.writeUInt32LE(0xfffffff0, central + 24);
  return copy;
}

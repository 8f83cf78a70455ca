/**
 * A local replica of https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx
 * for the downloader's tests (the live site is not reachable from the test machines).
 *
 * It behaves as the WebForms page does: a GET sets an ASP.NET_SessionId cookie and renders the
 * form with fresh hidden fields (__VIEWSTATE, __EVENTVALIDATION, ...), a state list `cboEdo`
 * (`00` "Todos", then 01–32), a format radio list `rblTipo` and an image button `btnDescarga`;
 * a POST is accepted only from that session with the hidden fields it was given and a state the
 * list offers (otherwise a 500 error page, as event validation does), re-renders the form when
 * no button was pressed, and otherwise answers CPdescargatxt.zip holding CPdescarga.txt, the
 * whole catalog or one state's rows. The markup follows what public scrapers of the page post
 * (cboEdo, rblTipo=txt, btnDescarga.x/.y, the hidden fields); the order of the format radios is
 * an assumption (rblTipo_1 is "txt" there).
 *
 * Tests change its behaviour per request with `override`, or its page and zips wholesale, and
 * wait on its `request` event rather than on time.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';

export const PAGE_PATH = '/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';

export const STATES: ReadonlyArray<readonly [string, string]> = [
  ['00', '---------- T  o  d  o  s ----------'],
  ...[
    'Aguascalientes', 'Baja California', 'Baja California Sur', 'Campeche', 'Coahuila de Zaragoza', 'Colima', 'Chiapas',
    'Chihuahua', 'Ciudad de México', 'Durango', 'Guanajuato', 'Guerrero', 'Hidalgo', 'Jalisco', 'México',
    'Michoacán de Ocampo', 'Morelos', 'Nayarit', 'Nuevo León', 'Oaxaca', 'Puebla', 'Querétaro', 'Quintana Roo',
    'San Luis Potosí', 'Sinaloa', 'Sonora', 'Tabasco', 'Tamaulipas', 'Tlaxcala', 'Veracruz de Ignacio de la Llave',
    'Yucatán', 'Zacatecas',
  ].map((name, i) => [String(i + 1).padStart(2, '0'), name] as const),
];

export interface FieldNames {
  state: string;
  format: string;
  button: string;
}

/** What one GET handed out, to be posted back. */
export interface IssuedForm {
  session: string;
  hidden: Record<string, string>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  cookie: string | undefined;
  /** The posted form, for a POST. */
  form: URLSearchParams | undefined;
}

export type Answer = (request: IncomingMessage, response: ServerResponse, recorded: RecordedRequest) => void;

export interface ReplicaOptions {
  /** The catalog text served, as bytes (Latin-1 like the real file). */
  catalog: Buffer;
  names?: Partial<FieldNames>;
}

export class CorreosReplica extends EventEmitter {
  readonly requests: RecordedRequest[] = [];
  readonly issued: IssuedForm[] = [];
  /** Every zip served, in order. */
  readonly served: Buffer[] = [];
  readonly names: FieldNames;
  /** The page's HTML for a set of hidden fields; replace it to serve a page of another shape. */
  page: (hidden: Record<string, string>) => string;
  /** The zip for a state key; replace it to serve another archive. */
  zipFor: (state: string) => Buffer;
  private readonly overrides: Array<{ method: string; answer: Answer; times: number }> = [];
  private readonly server: Server;
  pageUrl = '';
  origin = '';

  private constructor(options: ReplicaOptions) {
    super();
    this.names = { state: 'cboEdo', format: 'rblTipo', button: 'btnDescarga', ...options.names };
    this.page = (hidden) => officialPage(hidden, this.names);
    this.zipFor = (state) => catalogZip(options.catalog, state);
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  static async start(options: ReplicaOptions): Promise<CorreosReplica> {
    const replica = new CorreosReplica(options);
    replica.server.listen(0, '127.0.0.1');
    await once(replica.server, 'listening');
    const { port } = replica.server.address() as AddressInfo;
    replica.origin = `http://127.0.0.1:${port}`;
    replica.pageUrl = `${replica.origin}${PAGE_PATH}`;
    return replica;
  }

  /** Answers the next `times` requests of `method` with `answer` instead of the page's own behaviour. */
  override(method: 'GET' | 'POST', answer: Answer, times = 1): this {
    this.overrides.push({ method, answer, times });
    return this;
  }

  /** Forgets the requests seen and drops overrides a test left unused. */
  reset(): void {
    this.requests.length = 0;
    this.overrides.length = 0;
  }

  posts(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST');
  }

  gets(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'GET');
  }

  async close(): Promise<void> {
    // Stalled answers hold their sockets open; end them so the server can close.
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('latin1');
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      cookie: request.headers.cookie,
      form: request.method === 'POST' ? new URLSearchParams(body) : undefined,
    };
    this.requests.push(recorded);
    this.emit('request', recorded);

    const override = this.overrides.find((o) => o.method === recorded.method);
    if (override) {
      if (--override.times === 0) this.overrides.splice(this.overrides.indexOf(override), 1);
      return override.answer(request, response, recorded);
    }
    if (new URL(recorded.path, this.origin).pathname !== PAGE_PATH) return errorPage(response, 404, 'The resource cannot be found.');
    if (recorded.method === 'GET') return this.servePage(response);
    if (recorded.method === 'POST') return this.answerPost(response, recorded);
    errorPage(response, 405, 'Method not allowed');
  }

  private servePage(response: ServerResponse) {
    const issued: IssuedForm = {
      session: randomBytes(12).toString('hex'),
      // Base64 like the real view state, so `+`, `/` and `=` must survive the form encoding.
      hidden: {
        __EVENTTARGET: '',
        __EVENTARGUMENT: '',
        __LASTFOCUS: '',
        __VIEWSTATE: `/wEP${randomBytes(300).toString('base64')}`,
        __VIEWSTATEGENERATOR: 'BE1A6D2E',
        __EVENTVALIDATION: `/wEW${randomBytes(120).toString('base64')}`,
      },
    };
    this.issued.push(issued);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'set-cookie': `ASP.NET_SessionId=${issued.session}; path=/; HttpOnly; SameSite=Lax`,
    });
    response.end(this.page(issued.hidden));
  }

  private answerPost(response: ServerResponse, recorded: RecordedRequest) {
    const form = recorded.form ?? new URLSearchParams();
    const session = /ASP\.NET_SessionId=([0-9a-f]+)/.exec(recorded.cookie ?? '')?.[1];
    const issued = this.issued.find((i) => i.session === session);
    const hiddenIntact = issued && Object.entries(issued.hidden).every(([name, value]) => form.get(name) === value);
    const state = form.get(this.names.state) ?? '';
    if (!hiddenIntact || !STATES.some(([key]) => key === state)) {
      return errorPage(response, 500, 'Invalid postback or callback argument.');
    }
    if (!form.has(`${this.names.button}.x`)) return this.servePage(response);
    if (form.get(this.names.format) !== 'txt') return errorPage(response, 500, 'Formato no disponible en la réplica.');
    const zip = this.zipFor(state);
    this.served.push(zip);
    response.writeHead(200, {
      'content-type': 'application/x-zip-compressed',
      'content-disposition': 'attachment; filename=CPdescargatxt.zip',
      'content-length': zip.length,
    });
    response.end(zip);
  }
}

/** An ASP.NET-style error page. */
export function errorPage(response: ServerResponse, status: number, title: string) {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!DOCTYPE html>\r\n<html>\r\n<head>\r\n<title>${title}</title>\r\n</head>\r\n<body><h1>Server Error in '/SSLServicios' Application.</h1><h2><i>${title}</i></h2></body>\r\n</html>`);
}

/** The zip the page serves for a state: the catalog (all rows, or the state's) as CPdescarga.txt. */
export function catalogZip(catalog: Buffer, state: string, mtime = new Date(2026, 0, 15, 10, 30)): Buffer {
  return Buffer.from(zipSync({ 'CPdescarga.txt': catalogText(catalog, state) }, { mtime }));
}

/** The catalog's notice and header with the rows of one state (`c_estado`), or all for `00`. */
export function catalogText(catalog: Buffer, state: string): Buffer {
  if (state === '00') return catalog;
  const lines = catalog.toString('latin1').split('\r\n');
  const column = (lines[1] ?? '').split('|').indexOf('c_estado');
  const rows = lines.slice(2).filter((line) => line.split('|')[column] === state);
  return Buffer.from([lines[0], lines[1], ...rows, ''].join('\r\n'), 'latin1');
}

/** The export page as WebForms renders it. */
export function officialPage(hidden: Record<string, string>, names: FieldNames): string {
  const input = (name: string) => `<input type="hidden" name="${name}" id="${name}" value="${hidden[name] ?? ''}" />`;
  const options = STATES.map(
    ([key, name], i) => `\t<option${i === 0 ? ' selected="selected"' : ''} value="${key}">${escapeHtml(name)}</option>`,
  ).join('\r\n');
  const formats = [['xls', 'Excel'], ['txt', 'Txt'], ['xml', 'XML']]
    .map(([value, label], i) => `<td><input id="${names.format}_${i}" type="radio" name="${names.format}" value="${value}"${i === 0 ? ' checked="checked"' : ''} /><label for="${names.format}_${i}">${label}</label></td>`)
    .join('');
  return `
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>
	Consulta de C&#243;digos Postales - Exportar
</title><link href="../Estilos/Estilos.css" rel="stylesheet" type="text/css" /></head>
<body>
    <form name="form1" method="post" action="./CodigoPostal_Exportar.aspx" id="form1">
<div class="aspNetHidden">
${input('__EVENTTARGET')}
${input('__EVENTARGUMENT')}
${input('__LASTFOCUS')}
${input('__VIEWSTATE')}
</div>

<script type="text/javascript">
//<![CDATA[
var theForm = document.forms['form1'];
if (!theForm) { theForm = document.form1; }
function __doPostBack(eventTarget, eventArgument) {
    if (!theForm.onsubmit || (theForm.onsubmit() != false)) {
        theForm.__EVENTTARGET.value = eventTarget;
        theForm.__EVENTARGUMENT.value = eventArgument;
        theForm.submit();
    }
}
//]]>
</script>

<div class="aspNetHidden">
	${input('__VIEWSTATEGENERATOR')}
	${input('__EVENTVALIDATION')}
</div>
    <table class="tabla">
        <tr><td><span id="lblfecha">&#218;ltima Actualizaci&#243;n de Informaci&#243;n: Enero 15 de 2026</span></td></tr>
        <tr><td>Entidad Federativa:
            <select name="${names.state}" id="${names.state}" class="combo">
${options}
</select></td></tr>
        <tr><td>Formato:<table id="${names.format}"><tr>${formats}</tr></table></td></tr>
        <tr><td><input type="image" name="${names.button}" id="${names.button}" title="Descargar" src="../Imagenes/Descarga.png" /></td></tr>
    </table>
    </form>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  // WebForms writes non-ASCII letters in option text as numeric references.
  return text.replace(/[&<>"]|[^ -~\t\r\n]/g, (c) => `&#${c.codePointAt(0)};`);
}

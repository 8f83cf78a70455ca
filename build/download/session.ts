/**
 * What a browser does between the GET of the page and the POST of its form, and no more: keep
 * the cookies the site sets (the ASP.NET session ties the posted view state to it) and follow
 * redirects. Cookies are kept per origin and sent only back to the origin that set them, so a
 * redirect elsewhere never carries the session; redirects go only to http(s) and at most 5 deep.
 */
import { DownloadError } from './errors.js';
import { exchange, type ExchangeRequest, type ExchangeResponse } from './http.js';

const MAX_REDIRECTS = 5;
const USER_AGENT = 'Mozilla/5.0 (compatible; cpmx catalog download)';

export interface SessionResponse extends ExchangeResponse {
  /** The address that gave this answer, after redirects. */
  url: URL;
}

type Options = Pick<ExchangeRequest, 'timeouts' | 'signal' | 'maxBytes'>;
type OnProgress = ExchangeRequest['onProgress'];

export class BrowserSession {
  private readonly cookies = new Map<string, Map<string, string>>();

  constructor(private readonly options: Options) {}

  get(url: URL): Promise<SessionResponse> {
    return this.send('GET', url, undefined, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  }

  /** Posts a URL-encoded form from `referer`, the page it was read from. */
  postForm(url: URL, body: string, referer: URL, onProgress?: OnProgress): Promise<SessionResponse> {
    const headers = {
      accept: 'application/zip,application/x-zip-compressed,application/octet-stream,*/*;q=0.8',
      'content-type': 'application/x-www-form-urlencoded',
      origin: referer.origin,
      referer: referer.href,
    };
    return this.send('POST', url, body, headers, onProgress);
  }

  /** The cookies held for an origin, as `name=value` pairs (for the record and for tests of scoping). */
  cookieHeader(url: URL): string | undefined {
    const jar = this.cookies.get(url.origin);
    if (!jar?.size) return undefined;
    return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private async send(
    method: 'GET' | 'POST',
    start: URL,
    body: string | undefined,
    headers: Record<string, string>,
    onProgress?: OnProgress,
  ): Promise<SessionResponse> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      const cookie = this.cookieHeader(url);
      const response = await exchange({
        ...this.options,
        method,
        url,
        body,
        onProgress,
        headers: {
          'user-agent': USER_AGENT,
          'accept-language': 'es-MX,es;q=0.9',
          'accept-encoding': 'identity',
          ...headers,
          ...(cookie ? { cookie } : {}),
        },
      });
      this.keepCookies(url, response.headers['set-cookie']);
      const location = response.headers.location;
      if (response.status < 300 || response.status > 399 || response.status === 304 || !location) return { ...response, url };
      if (redirects === MAX_REDIRECTS) {
        throw new DownloadError('http-status', `${start.host} redirected more than ${MAX_REDIRECTS} times (last to ${location})`, { status: response.status });
      }
      url = redirectTarget(location, url, response.status);
      // 307 and 308 repeat the request as it was; the others turn it into a GET without a body.
      if (response.status !== 307 && response.status !== 308) {
        method = 'GET';
        body = undefined;
        headers = { accept: headers.accept ?? '*/*' };
      }
    }
  }

  private keepCookies(url: URL, setCookie: string[] | undefined) {
    if (!setCookie?.length) return;
    let jar = this.cookies.get(url.origin);
    if (!jar) this.cookies.set(url.origin, (jar = new Map()));
    for (const line of setCookie) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
  }
}

function redirectTarget(location: string, from: URL, status: number): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new DownloadError('http-status', `${from.host} redirected to an invalid address (${location})`, { status });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new DownloadError('http-status', `${from.host} redirected to ${target.protocol} address ${location}, which cpmx does not follow`, { status });
  }
  return target;
}

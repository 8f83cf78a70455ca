/** Every way a catalog download can fail, as one error class with a `kind` to switch on. */

/** The page Correos de México serves the catalog from. */
export const OFFICIAL_PAGE_URL = 'https://www.correosdemexico.gob.mx/SSLServicios/ConsultaCP/CodigoPostal_Exportar.aspx';

export type DownloadErrorKind =
  /** No connection: DNS failure, connection refused, no route, no connection within the connect timeout, TLS refused. */
  | 'unreachable'
  /** Connected, then the site went silent past the idle timeout, or the whole download passed the total timeout. */
  | 'timeout'
  /** The connection closed before the answer was whole (body shorter than Content-Length, socket closed mid-body). */
  | 'cut-connection'
  /** The site answered with an HTTP error status, or redirected somewhere cpmx will not follow. */
  | 'http-status'
  /** The page is not the export form cpmx knows: no form, no hidden state fields, no state list, format or button. */
  | 'page-changed'
  /** The state key is not two digits, or not one the page offers. */
  | 'unknown-state'
  /** The form was posted but what came back is not a zip (typically an HTML error page). */
  | 'not-a-zip'
  /** A zip came back but it is damaged, lacks `CPdescarga.txt` (or holds two), or the text lacks the catalog header. */
  | 'bad-catalog'
  /** The answer is larger than the download allows. */
  | 'too-large'
  /** The caller's signal aborted the download. */
  | 'aborted'
  /** The zip was good but could not be written where asked. */
  | 'write';

export interface DownloadErrorDetails {
  /** Worth another attempt: network failures, cut connections, 5xx answers, a damaged zip. */
  transient?: boolean;
  /** The HTTP status, for `http-status`. */
  status?: number;
  cause?: unknown;
}

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  readonly transient: boolean;
  readonly status: number | undefined;
  /** How many attempts were made before giving up; set by the download once it gives up. */
  attempts = 1;
  /** The page the download was made from, for the manual steps. */
  pageUrl = OFFICIAL_PAGE_URL;

  constructor(
    readonly kind: DownloadErrorKind,
    /** What went wrong, in one sentence, without the manual steps. */
    readonly reason: string,
    details: DownloadErrorDetails = {},
  ) {
    super(reason, details.cause === undefined ? undefined : { cause: details.cause });
    this.transient = details.transient ?? false;
    this.status = details.status;
  }

  /** Where the site failed, the way around it is always the same: download in a browser. */
  get manualSteps(): string | undefined {
    if (this.kind === 'write' || this.kind === 'aborted' || this.kind === 'unknown-state') return undefined;
    return manualDownloadSteps(this.pageUrl);
  }

  /** Records the attempts and the page, and puts the manual steps in the message. */
  settle(attempts: number, pageUrl: string): this {
    this.attempts = attempts;
    this.pageUrl = pageUrl;
    const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    this.message = this.manualSteps ? `${this.reason}${tried}\n${this.manualSteps}` : `${this.reason}${tried}`;
    return this;
  }
}

export function manualDownloadSteps(pageUrl: string): string {
  return (
    `To download the catalog by hand: open ${pageUrl} in a browser, choose "Todos" (or one state) ` +
    `and the format "Txt", press the download button and save CPdescargatxt.zip, then run: ` +
    `cpmx build --source CPdescargatxt.zip`
  );
}

/**
 * The parts of node:http's request and response that the middleware uses, declared here so
 * that cpmx's types need no @types/node: an app with none (a browser or edge build, or
 * TypeScript 7, which includes no @types by default) type-checks cpmx's entry. node:http's
 * IncomingMessage and ServerResponse fit them, and so do Express's, Connect's and Fastify's raw
 * request and reply, which are those.
 */

/** What the middleware reads of a request (node:http's IncomingMessage). */
export interface NodeRequest {
  method?: string | undefined;
  url?: string | undefined;
  /** The headers as received: name, value, name, value… */
  rawHeaders: string[];
}

/** What the middleware does with a response (node:http's ServerResponse). */
export interface NodeResponse {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly socket: { readonly destroyed: boolean; readonly writable: boolean } | null;
  writeHead(status: number, headers: string[]): unknown;
  end(body?: string | Uint8Array): unknown;
  end(body: string, encoding: 'latin1'): unknown;
  destroy(): unknown;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

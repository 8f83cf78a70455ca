/**
 * The Node library's HTTP side, a file of its own (dist/cpmx-http.js, .cjs) that
 * lazy-handlers.ts imports at a handler's first request: the responder, the fetch and
 * node:http adapters and what they use. `import { createClient } from 'cpmx'` then parses none
 * of it. It carries its own copy of the modules it shares with the library: what crosses
 * between the two (the catalog source, its catalog, its errors) is never checked by identity.
 */
export { fetchHandlerOver } from './fetch.js';
export { responderOver } from './handler.js';
export { middlewareOver } from './node-middleware.js';

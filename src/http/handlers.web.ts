/** lazy-handlers.ts in the web build (scripts/bundle.mjs swaps it in): the handlers made whole at once, the middleware's node:http side loaded at its first request (middleware.web.ts). */
export { createFetchHandler, type FetchHandler } from './fetch.js';
export { createMiddleware, type Middleware, type Next } from './middleware.js';

/**
 * The request side (http-side.ts) at its first need: a file of its own beside each library
 * bundle (scripts/bundle.mjs). The CommonJS bundle gets a version that requires
 * dist/cpmx-http.cjs instead of importing it: that bundle is also compiled as a script with
 * its shipped bytecode (src/node-entry.ts), and a script has no module loader for `import()`.
 */
export const loadHttpSide = (): Promise<typeof import('./http-side.js')> => import('./http-side.js');

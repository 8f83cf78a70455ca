/**
 * The typed lookup methods, one per row of the method table (src/core/methods.ts) that names
 * one, each building its request by name with `rawRequest`. The Node client (answers now) and
 * the web client (answers as a promise, with an optional `{ signal }` last) both wrap `ask`
 * with these, so a method's parameters are read the same way in both.
 */
import { METHODS, type BodyOf, type ClientName, type Method, type Parameter } from '../core/methods.js';
import { parseRequestPath, rawRequest, type RawRequest } from '../core/request.js';

export { LOCAL_TOKEN } from './local-token.js';

/** JavaScript callers may pass a number: it is read as its text, as a path would carry it. */
const text = (value: unknown) => (typeof value === 'string' ? value : String(value));
/** An optional value: absent stays absent, anything else is read as its text. */
const optionalText = (value: unknown) => (value === undefined || value === null ? undefined : text(value));

type Ask<R, E> = (raw: RawRequest, extra: E | undefined) => R;

/** Where a typed method finds its options object: nowhere (it takes none), or at this argument. */
const ABSENT = -1;

/** Argument `i` of a call, without the array a rest parameter would make on every call. */
const argument = (i: number, a: unknown, b: unknown, c: unknown, d: unknown) => (i === 0 ? a : i === 1 ? b : i === 2 ? c : d);

/**
 * A row's typed method: the segment, then each required parameter, then an options object
 * of the optional ones, then `extra`; the request is built from the row's parameters by name
 * (`rawRequest`), so a parameter added to the row is read with no change here.
 */
function lookupMethod<R, E>(method: Method, ask: Ask<R, E>, token: string | undefined): (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => R {
  const { segment, parameters, required = [] } = METHODS[method] as { segment?: string; parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const first = segment ? 1 : 0;
  const optionsAt = parameters.some((parameter) => !required.includes(parameter)) ? first + required.length : ABSENT;
  const extraAt = first + required.length + (optionsAt === ABSENT ? 0 : 1);
  // The shapes of most rows, each as direct as a method written by hand: nothing, the segment, the segment and options.
  if (!parameters.length) {
    if (first) return (a, b) => ask(rawRequest({ method, segment: text(a), token }), b as E | undefined);
    return (a) => ask(rawRequest({ method, token }), a as E | undefined);
  }
  if (!required.length && first) {
    return (a, b, c) => {
      const options = b as Partial<Record<Parameter, unknown>> | undefined;
      return ask(rawRequest({ method, segment: text(a), token, parameters: valuesOf(parameters, options) }), c as E | undefined);
    };
  }
  return (a, b, c, d) => {
    const options = (optionsAt === ABSENT ? undefined : argument(optionsAt, a, b, c, d)) as Partial<Record<Parameter, unknown>> | undefined;
    const values = valuesOf(parameters, options);
    for (let i = 0; i < required.length; i++) values[required[i]!] = optionalText(argument(first + i, a, b, c, d));
    return ask(rawRequest({ method, segment: segment ? text(a) : undefined, token, parameters: values }), argument(extraAt, a, b, c, d) as E | undefined);
  };
}

/** The parameters named in an options object, each read as its text (absent stays absent). */
function valuesOf(names: readonly Parameter[], options: Partial<Record<Parameter, unknown>> | undefined): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  if (options !== undefined && options !== null) for (const name of names) values[name] = optionalText(options[name]);
  return values;
}

/** The typed methods over `ask`, one per row of the method table that names one; `extra` (the web client's `{ signal }`) is handed through. */
export function lookupMethods<R, E>(ask: Ask<R, E>, token: string | undefined): Record<ClientName, (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => R> {
  const methods = {} as Record<ClientName, (a?: unknown, b?: unknown, c?: unknown, d?: unknown) => R>;
  for (const method of Object.keys(METHODS) as Method[]) {
    const name = METHODS[method].client;
    if (name) methods[name] = lookupMethod(method, ask, token);
  }
  return methods;
}

/**
 * The compiler's check that a client's typed methods are the table's (`Wrap` is what a method
 * returns around its body: the body itself, or a Promise of it): `true` when every row's client
 * name is a method of `L` that returns what the row answers, and `L` has no other.
 */
export type MatchesTable<L, Wrap extends 'body' | 'promise'> = [Exclude<keyof L, ClientName>, Exclude<ClientName, keyof L>] extends [never, never]
  ? { [M in Method as NonNullable<(typeof METHODS)[M]['client']>]: Returns<L, NonNullable<(typeof METHODS)[M]['client']>, Wrap extends 'body' ? BodyOf<M> : Promise<BodyOf<M>>> }[ClientName] extends true
    ? true
    : false
  : false;
/** Fails to compile unless `T` is `true`: `Assert<MatchesTable<...>>`. */
export type Assert<T extends true> = T;
type Returns<L, N, R> = N extends keyof L ? (L[N] extends (...args: never[]) => infer T ? ([R] extends [T] ? true : false) : false) : false;

/** A request path as the contract reads it, the client's token standing in for a path that carries none (as a default token does). */
export function pathRequest(path: string, token: string | undefined): RawRequest | undefined {
  const raw = parseRequestPath(String(path));
  if (raw && raw.token === undefined) raw.token = token || undefined;
  return raw;
}

/**
 * The typed lookup methods, one per row of the method table (src/core/methods.ts) that names
 * one, each building its request in the one shape `rawRequest` makes. The Node client (answers now) and the web client (answers
 * as a promise, with an optional `{ signal }` last) both wrap `ask` with these, so a method's
 * parameters are read the same way in both.
 */
import { METHODS, type BodyOf, type ClientName, type Method, type Parameter } from '../core/methods.js';
import { parseRequestPath, rawRequest, type RawRequest } from '../core/request.js';

/** The typed lookups' token when the client has none and no registry counts tokens: any token answers locally. */
export const LOCAL_TOKEN = 'local';

/** JavaScript callers may pass a number: it is read as its text, as a path would carry it. */
const text = (value: unknown) => (typeof value === 'string' ? value : String(value));
/** An optional value: absent stays absent, anything else is read as its text. */
const optionalText = (value: unknown) => (value === undefined || value === null ? undefined : text(value));

type Ask<R, E> = (raw: RawRequest, extra: E | undefined) => R;

/**
 * A row's typed method: the segment, then each required parameter, then an options object
 * of the optional ones, then `extra`; the request is built in the one shape `rawRequest` makes.
 */
function lookupMethod<R, E>(method: Method, ask: Ask<R, E>, token: string | undefined): (...args: unknown[]) => R {
  const { segment, parameters, required = [] } = METHODS[method] as { segment?: string; parameters: readonly Parameter[]; required?: readonly Parameter[] };
  const optional = parameters.filter((parameter) => !required.includes(parameter));
  const positional = (segment ? 1 : 0) + required.length;
  const extraAt = positional + (optional.length ? 1 : 0);
  return (...args) => {
    const values: Partial<Record<Parameter, string>> = {};
    let at = 0;
    const segmentValue = segment ? text(args[at++]) : undefined;
    for (const parameter of required) values[parameter] = optionalText(args[at++]);
    if (optional.length) {
      const options = args[at] as Partial<Record<Parameter, unknown>> | undefined;
      for (const parameter of optional) values[parameter] = optionalText(options?.[parameter]);
    }
    return ask(rawRequest(method, segmentValue, token, values.type, values.estado, values.municipio, values.colonia, values.limit), args[extraAt] as E | undefined);
  };
}

/** The typed methods over `ask`, one per row of the method table that names one; `extra` (the web client's `{ signal }`) is handed through. */
export function lookupMethods<R, E>(ask: Ask<R, E>, token: string | undefined): Record<ClientName, (...args: unknown[]) => R> {
  const methods = {} as Record<ClientName, (...args: unknown[]) => R>;
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

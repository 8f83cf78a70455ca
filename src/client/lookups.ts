/**
 * The typed lookup methods, one per method of the contract, each building its request in the
 * one shape `rawRequest` makes. The Node client (answers now) and the web client (answers
 * as a promise, with an optional `{ signal }` last) both wrap `ask` with these, so a method's
 * parameters are read the same way in both.
 */
import { parseRequestPath, rawRequest, type RawRequest } from '../core/request.js';

/** The typed lookups' token when the client has none and no registry counts tokens: any token answers locally. */
export const LOCAL_TOKEN = 'local';

/** JavaScript callers may pass a number: it is read as its text, as a path would carry it. */
const text = (value: unknown) => (typeof value === 'string' ? value : String(value));
/** An optional value: absent stays absent, anything else is read as its text. */
const optional = (value: unknown) => (value === undefined || value === null ? undefined : text(value));

interface MunicipioOptionsLike {
  estado?: string | undefined;
}
interface InfoCpOptionsLike {
  type?: string | undefined;
}
interface AdvancedOptionsLike {
  municipio?: string | undefined;
  colonia?: string | undefined;
  limit?: number | string | undefined;
}

/** The methods over `ask`; `extra` (the web client's `{ signal }`) is handed through. */
export function lookupMethods<R, E>(ask: (raw: RawRequest, extra: E | undefined) => R, token: string | undefined) {
  return {
    infoCp: (cp: string, options?: InfoCpOptionsLike, extra?: E) => ask(rawRequest('info_cp', text(cp), token, options?.type), extra),
    searchCp: (partial: string, extra?: E) => ask(rawRequest('search_cp', text(partial), token), extra),
    getEstados: (extra?: E) => ask(rawRequest('get_estados', undefined, token), extra),
    getMunicipioPorEstado: (estado: string, extra?: E) => ask(rawRequest('get_municipio_por_estado', text(estado), token), extra),
    getColoniaPorCp: (cp: string, extra?: E) => ask(rawRequest('get_colonia_por_cp', text(cp), token), extra),
    getCpPorEstado: (estado: string, extra?: E) => ask(rawRequest('get_cp_por_estado', text(estado), token), extra),
    getCpPorMunicipio: (municipio: string, options?: MunicipioOptionsLike, extra?: E) =>
      ask(rawRequest('get_cp_por_municipio', text(municipio), token, undefined, optional(options?.estado)), extra),
    getColoniaPorMunicipio: (municipio: string, options?: MunicipioOptionsLike, extra?: E) =>
      ask(rawRequest('get_colonia_por_municipio', text(municipio), token, undefined, optional(options?.estado)), extra),
    getColoniaPorEstadoMunicipio: (estado: string, municipio: string, extra?: E) =>
      ask(rawRequest('get_colonia_por_estado_municipio', undefined, token, undefined, optional(estado), optional(municipio)), extra),
    searchCpAdvanced: (estado: string, options?: AdvancedOptionsLike, extra?: E) =>
      ask(
        rawRequest('search_cp_advanced', text(estado), token, undefined, undefined, optional(options?.municipio), optional(options?.colonia), optional(options?.limit)),
        extra,
      ),
    getEstadoClave: (extra?: E) => ask(rawRequest('get_estado_clave', undefined, token), extra),
    getMunicipioClavePorEstado: (estado: string, extra?: E) => ask(rawRequest('get_municipio_clave_por_estado', text(estado), token), extra),
    getMunicipioClavePorClaveEstado: (clave: string | number, extra?: E) => ask(rawRequest('get_municipio_clave_por_clave_estado', text(clave), token), extra),
    getCitiesByStateCode: (clave: string | number, extra?: E) => ask(rawRequest('getCitiesByStateCode', text(clave), token), extra),
    consultasDisponibles: (extra?: E) => ask(rawRequest('cuenta/consultas_disponibles', undefined, token), extra),
  };
}

/** A request path as the contract reads it, the client's token standing in for a path that carries none (as a default token does). */
export function pathRequest(path: string, token: string | undefined): RawRequest | undefined {
  const raw = parseRequestPath(String(path));
  if (raw && raw.token === undefined) raw.token = token || undefined;
  return raw;
}

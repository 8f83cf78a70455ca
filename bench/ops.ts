/** The timed operations: checked alike and timed by the measuring step, labelled by the report. */
import type { AdvancedOptions, Lookups } from './contestants/types.js';
import type { Workload } from './workload.js';

export interface Op<Q = unknown> {
  id: string;
  label: string;
  queries: (workload: Workload) => readonly Q[];
  run: (api: Lookups, query: Q) => unknown;
}

/** An operation, its query type checked here and erased for the tables that list them all. */
function op<Q>(spec: Op<Q>): Op {
  return spec as unknown as Op;
}

/** tinybench's warm-up before each timed task, in the lookup children. */
export const WARMUP_MS = 100;

export const OPS: Op[] = [
  op<string>({ id: 'infoCp.simplified', label: 'infoCp simplified', queries: (w) => w.codes, run: (api, q) => api.infoCp(q, true) }),
  op<string>({ id: 'infoCp.full', label: 'infoCp full', queries: (w) => w.codes, run: (api, q) => api.infoCp(q, false) }),
  op<string>({ id: 'infoCp.notFound', label: 'infoCp not found (105)', queries: (w) => w.notFound, run: (api, q) => api.infoCp(q, false) }),
  op<string>({ id: 'infoCp.malformed', label: 'infoCp malformed (101/102/104)', queries: (w) => w.malformed, run: (api, q) => api.infoCp(q, false) }),
  op<string>({ id: 'searchCp.1', label: 'searchCp 1 digit', queries: (w) => w.prefixes1, run: (api, q) => api.searchCp(q) }),
  op<string>({ id: 'searchCp.3', label: 'searchCp 3 digits', queries: (w) => w.prefixes3, run: (api, q) => api.searchCp(q) }),
  op<string>({ id: 'searchCp.5', label: 'searchCp 5 digits', queries: (w) => w.prefixes5, run: (api, q) => api.searchCp(q) }),
  op<string>({ id: 'getMunicipioPorEstado', label: 'getMunicipioPorEstado', queries: (w) => w.estados, run: (api, q) => api.getMunicipioPorEstado(q) }),
  op<string>({ id: 'getEstados', label: 'getEstados', queries: () => [''], run: (api) => api.getEstados() }),
  op<string>({ id: 'getColoniaPorCp', label: 'getColoniaPorCp', queries: (w) => w.codes, run: (api, q) => api.getColoniaPorCp(q) }),
  op<string>({ id: 'getCpPorEstado', label: 'getCpPorEstado', queries: (w) => w.estados, run: (api, q) => api.getCpPorEstado(q) }),
  op<string>({ id: 'getCpPorMunicipio', label: 'getCpPorMunicipio (every state)', queries: (w) => w.municipios, run: (api, q) => api.getCpPorMunicipio(q) }),
  op<[string, string]>({
    id: 'getCpPorMunicipio.estado',
    label: 'getCpPorMunicipio with estado',
    queries: (w) => w.municipiosDeEstado,
    run: (api, [estado, municipio]) => api.getCpPorMunicipio(municipio, estado),
  }),
  op<string>({ id: 'getColoniaPorMunicipio', label: 'getColoniaPorMunicipio (every state)', queries: (w) => w.municipios, run: (api, q) => api.getColoniaPorMunicipio(q) }),
  op<[string, string]>({
    id: 'getColoniaPorEstadoMunicipio',
    label: 'getColoniaPorEstadoMunicipio',
    queries: (w) => w.municipiosDeEstado,
    run: (api, [estado, municipio]) => api.getColoniaPorEstadoMunicipio(estado, municipio),
  }),
  op<[string, AdvancedOptions]>({
    id: 'searchCpAdvanced.municipio',
    label: 'searchCpAdvanced with municipio',
    queries: (w) => w.municipiosDeEstado.map(([estado, municipio]) => [estado, { municipio }]),
    run: (api, [estado, options]) => api.searchCpAdvanced(estado, options),
  }),
  op<[string, AdvancedOptions]>({
    id: 'searchCpAdvanced.colonia',
    label: 'searchCpAdvanced with colonia, the largest state',
    queries: (w) => w.colonias.map(([estado, colonia]) => [estado, { colonia }]),
    run: (api, [estado, options]) => api.searchCpAdvanced(estado, options),
  }),
  op<string>({ id: 'getEstadoClave', label: 'getEstadoClave', queries: () => [''], run: (api) => api.getEstadoClave() }),
  op<string>({ id: 'getMunicipioClavePorEstado', label: 'getMunicipioClavePorEstado', queries: (w) => w.estados, run: (api, q) => api.getMunicipioClavePorEstado(q) }),
  op<string>({
    id: 'getMunicipioClavePorClaveEstado',
    label: 'getMunicipioClavePorClaveEstado',
    queries: (w) => w.claves,
    run: (api, q) => api.getMunicipioClavePorClaveEstado(q),
  }),
  op<string>({ id: 'getCitiesByStateCode', label: 'getCitiesByStateCode', queries: (w) => w.claves, run: (api, q) => api.getCitiesByStateCode(q) }),
];

/** The operations of contract version 2, each judged against copying its answer's list. */
export const VERSION_2_OPS = OPS.slice(OPS.findIndex((o) => o.id === 'getColoniaPorCp'));

/** The reference measure of an operation: copying the lists of its answers, as any answer must. */
export const copyId = (id: string) => `copy.${id}`;

/** cpmx-only measures: the path router, the account method, and the reference costs of copying answer lists. */
export const CPMX_EXTRAS: { id: string; label: string }[] = [
  { id: 'query.path', label: 'query(path) info_cp simplified' },
  { id: 'consultasDisponibles', label: 'consultasDisponibles (no registry)' },
  { id: 'listCopy.3', label: 'reference: copy a 3-digit answer list' },
  ...VERSION_2_OPS.map((o) => ({ id: copyId(o.id), label: `reference: copy a ${o.label} answer` })),
];

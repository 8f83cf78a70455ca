/** The timed operations: checked alike and timed by the measuring step, labelled by the report. */
import type { Lookups } from './contestants/types.js';
import type { Workload } from './workload.js';

export interface Op {
  id: string;
  label: string;
  queries: (workload: Workload) => string[];
  run: (api: Lookups, query: string) => unknown;
}

/** tinybench's warm-up before each timed task, in the lookup children. */
export const WARMUP_MS = 100;

export const OPS: Op[] = [
  { id: 'infoCp.simplified', label: 'infoCp simplified', queries: (w) => w.codes, run: (api, q) => api.infoCp(q, true) },
  { id: 'infoCp.full', label: 'infoCp full', queries: (w) => w.codes, run: (api, q) => api.infoCp(q, false) },
  { id: 'infoCp.notFound', label: 'infoCp not found (105)', queries: (w) => w.notFound, run: (api, q) => api.infoCp(q, false) },
  { id: 'infoCp.malformed', label: 'infoCp malformed (101/102/104)', queries: (w) => w.malformed, run: (api, q) => api.infoCp(q, false) },
  { id: 'searchCp.1', label: 'searchCp 1 digit', queries: (w) => w.prefixes1, run: (api, q) => api.searchCp(q) },
  { id: 'searchCp.3', label: 'searchCp 3 digits', queries: (w) => w.prefixes3, run: (api, q) => api.searchCp(q) },
  { id: 'searchCp.5', label: 'searchCp 5 digits', queries: (w) => w.prefixes5, run: (api, q) => api.searchCp(q) },
  { id: 'getMunicipioPorEstado', label: 'getMunicipioPorEstado', queries: (w) => w.estados, run: (api, q) => api.getMunicipioPorEstado(q) },
  { id: 'getEstados', label: 'getEstados', queries: () => [''], run: (api) => api.getEstados() },
];

/** cpmx-only measures: the path router, and the reference cost of copying a search answer. */
export const CPMX_EXTRAS = [
  { id: 'query.path', label: 'query(path) info_cp simplified' },
  { id: 'listCopy.3', label: 'reference: copy a 3-digit answer list' },
] as const;

/** What every contestant answers: the bodies of the contract, for the same queries. */
export interface Lookups {
  infoCp(cp: string, simplified: boolean): unknown;
  searchCp(prefix: string): unknown;
  getEstados(): unknown;
  getMunicipioPorEstado(estado: string): unknown;
  getColoniaPorCp(cp: string): unknown;
  getCpPorEstado(estado: string): unknown;
  /** Every state's municipality of that name, or only `estado`'s. */
  getCpPorMunicipio(municipio: string, estado?: string): unknown;
  getColoniaPorMunicipio(municipio: string, estado?: string): unknown;
  getColoniaPorEstadoMunicipio(estado: string, municipio: string): unknown;
  searchCpAdvanced(estado: string, options: AdvancedOptions): unknown;
  getEstadoClave(): unknown;
  getMunicipioClavePorEstado(estado: string): unknown;
  getMunicipioClavePorClaveEstado(clave: string): unknown;
  getCitiesByStateCode(clave: string): unknown;
  close?(): void;
}

/** search_cp_advanced's narrowing, as the workload gives it (absent: not narrowed). */
export interface AdvancedOptions {
  municipio?: string | undefined;
  colonia?: string | undefined;
  limit?: number | undefined;
}

/** Where `prepare` left each contestant's data. */
export interface DataPaths {
  artifact: string;
  sqlite: string;
  json: string;
}

/**
 * A contestant's module: opens its data. Contestant modules import nothing but their own
 * library at run time, so a cold start measures that library and not the harness.
 */
export interface ContestantModule {
  open(paths: DataPaths): Lookups;
}

export const CONTESTANTS = ['cpmx', 'sqlite', 'json', 'upper'] as const;
export type ContestantName = (typeof CONTESTANTS)[number];

export const LABELS: Record<ContestantName, string> = {
  cpmx: 'cpmx',
  sqlite: 'SQLite (better-sqlite3)',
  json: 'naive JSON',
  upper: 'upper bound (Map of prebuilt answers)',
};

/** The data paths inside a work directory. */
export function dataPaths(work: string): DataPaths {
  return { artifact: `${work}/cpmx.msgpack`, sqlite: `${work}/catalog.sqlite`, json: `${work}/catalog.json` };
}

/** Why an artifact has no geodata: what 113 says. */
export const NO_GEODATA = 'este artefacto no tiene datos geográficos; constrúyalo con `cpmx build --geo FILE...`';

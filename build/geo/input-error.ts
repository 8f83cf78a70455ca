/** A polygon file refused: the message names the file and the place. Apart, so both readers (GeoJSON, KML) throw it without importing each other. */
export class GeoInputError extends Error {}

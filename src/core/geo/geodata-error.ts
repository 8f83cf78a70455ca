/** The artifact has no geodata (or it is damaged): the message says what to build. */
export class GeodataError extends Error {
  override name = 'GeodataError';
}

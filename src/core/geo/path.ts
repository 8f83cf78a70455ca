/** The geodata file of an artifact: beside it, `.geo` instead of `.msgpack` (or added to another name). */
export function geoPathOf(artifactPath: string): string {
  return artifactPath.endsWith('.msgpack') ? `${artifactPath.slice(0, -'.msgpack'.length)}.geo` : `${artifactPath}.geo`;
}

// polylabel ships no types: a polygon (outer ring, then holes, as [x, y] pairs) to the point farthest inside it.
declare module 'polylabel' {
  export default function polylabel(polygon: number[][][], precision?: number): number[] & { distance: number };
}

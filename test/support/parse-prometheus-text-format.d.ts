/** The npm package ships no types: what the metrics test uses of it. */
declare module 'parse-prometheus-text-format' {
  /** The families of a Prometheus text exposition, each with its samples (histograms with buckets, count and sum). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}

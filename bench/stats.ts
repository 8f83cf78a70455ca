/**
 * The benchmark's one statistics module: every median, quantile and spread in bench/ comes
 * from here, so numbers measured by different parts of the benchmark mean the same thing.
 *
 * Convention: quantiles interpolate linearly between the two nearest ranks (Hyndman & Fan
 * type 7, the default of R and NumPy and what tinybench computes), so the median of an even
 * count is the mean of the two middle values, and of an odd count the middle value itself.
 */

export interface Spread {
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  runs: number;
}

function sortedCopy(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new RangeError('no samples: a statistic of nothing is undefined');
  for (const value of samples) if (!Number.isFinite(value)) throw new RangeError(`sample ${value} is not a finite number`);
  return [...samples].sort((a, b) => a - b);
}

function quantileOfSorted(sorted: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile ${q} is outside 0..1`);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const fraction = position - below;
  const low = sorted[below]!;
  if (fraction === 0) return low;
  const high = sorted[below + 1]!;
  return fraction === 0.5 ? (low + high) / 2 : low + fraction * (high - low);
}

/** The quantiles `qs` (each in 0..1) of `samples`, sorting once. */
export function quantiles(samples: readonly number[], qs: readonly number[]): number[] {
  const sorted = sortedCopy(samples);
  return qs.map((q) => quantileOfSorted(sorted, q));
}

export function quantile(samples: readonly number[], q: number): number {
  return quantiles(samples, [q])[0]!;
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export function spread(samples: readonly number[]): Spread {
  const sorted = sortedCopy(samples);
  return {
    median: quantileOfSorted(sorted, 0.5),
    p25: quantileOfSorted(sorted, 0.25),
    p75: quantileOfSorted(sorted, 0.75),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    runs: sorted.length,
  };
}

/**
 * A distribution-free confidence interval of the median of `samples` (order statistics: the
 * k-th smallest and the k-th largest, k as large as keeps the coverage at `level` or above,
 * from the binomial distribution with p = 1/2), with its exact coverage; undefined when there
 * are too few samples for any such interval (fewer than 6 at 95%).
 */
export function medianInterval(samples: readonly number[], level = 0.95): { low: number; high: number; coverage: number } | undefined {
  const sorted = sortedCopy(samples);
  const n = sorted.length;
  // tail: the chance that at most j of the n samples fall below the true median.
  let term = 0.5 ** n;
  let tail = term;
  let best: number | undefined;
  let bestCoverage = 0;
  for (let j = 0; 2 * j < n; j++) {
    // [sorted[j], sorted[n-1-j]] misses the median when at most j samples are on one side of it.
    const coverage = 1 - 2 * tail;
    if (coverage < level) break;
    best = j;
    bestCoverage = coverage;
    term = (term * (n - j)) / (j + 1);
    tail += term;
  }
  if (best === undefined) return undefined;
  return { low: sorted[best]!, high: sorted[n - 1 - best]!, coverage: bestCoverage };
}

/**
 * The p-th percentile (0-100) of xs, in their unit: the value at index ⌊p/100 · n⌋ of xs
 * sorted, the last one at most. So the p95 of 20 figures is the slowest of them and of 30 the
 * second-slowest, as every bench figure in docs/search.md was computed. NaN when xs is
 * empty, so that a missing figure never prints as 0.
 */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

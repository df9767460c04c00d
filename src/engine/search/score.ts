/** Scores are reported to 6 decimals. */
export const round = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A score lowered to `weight` (0-1) of itself: multiplied when it is positive, divided when it
 * is negative (a keyword score can be), so it falls either way.
 */
export const lower = (score: number, weight: number) => (score >= 0 ? score * weight : score / weight);

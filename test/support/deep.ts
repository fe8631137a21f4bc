/**
 * How far the deep tier searches (test/README.md). By default one seed per variant, which every
 * `.ci/run` runs; `DEEP=full` runs every seed the tier has, as it did before it was a tier.
 */
export const DEEP_FULL = process.env.DEEP === 'full' || process.env.DEEP === 'soak';

/**
 * `DEEP=soak`: `full`, and the matrix of correct designs explored for its whole time bound (60 s
 * a seed) instead of a bound in requests: issue 35's measure, about an hour on 2 cores, by hand.
 */
export const DEEP_SOAK = process.env.DEEP === 'soak';

/** `seeds` under `DEEP=full`, else only the first. */
export function deepSeeds<T>(seeds: readonly [T, ...T[]]): T[] {
  return DEEP_FULL ? [...seeds] : [seeds[0]];
}

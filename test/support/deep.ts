/**
 * How far the deep tier searches (test/README.md). By default one seed per variant, which every
 * `.ci/run` runs; `DEEP=full` runs every seed the tier has, as it did before it was a tier.
 */
export const DEEP_FULL = process.env.DEEP === 'full';

/** `seeds` under `DEEP=full`, else only the first. */
export function deepSeeds<T>(seeds: readonly [T, ...T[]]): T[] {
  return DEEP_FULL ? [...seeds] : [seeds[0]];
}

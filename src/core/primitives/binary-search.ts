/**
 * The first index in `0..length` for which `reached(index)` holds, where it holds for a suffix of
 * the range (binary search); `length` when it holds for none. The one binary search of the mock:
 * sorted record arrays, the packed word ids of the search index and the ranked search hits.
 */
export function firstIndex(length: number, reached: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (reached(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}

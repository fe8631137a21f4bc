import { breathe } from './breathe.ts';

/**
 * Long work as slices: a generator that yields between them. Run here, the first slice runs in
 * the call; when that was all, nothing is awaited (undefined). Otherwise the event loop runs
 * between slices (requests are answered meanwhile) and the promise settles when the work is
 * done. An error of the first slice is thrown in the call; a later one rejects the promise.
 * @note So a small reset or load is whole when the call returns, and a large one holds the event
 * loop for one slice at a time instead of all of it.
 */
export function runInSlices(slices: Iterator<void, void>): Promise<void> | undefined {
  if (slices.next().done === true) return undefined;
  return (async () => {
    do await breathe();
    while (slices.next().done !== true);
  })();
}

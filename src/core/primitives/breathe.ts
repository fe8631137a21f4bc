/**
 * Lets the event loop run (I/O, timers, other requests) before long work goes on: a load, an
 * export written in pieces, a large collection leaving the search index. `setImmediate` where
 * the runtime has it (Node), a zero timeout elsewhere (a browser).
 */
export const breathe = (): Promise<void> =>
  new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

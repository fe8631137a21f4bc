import { CheckFailure } from './failure.ts';
import { Divergence } from './judges/verdict.ts';
import type { OperationName } from './target-api/description.ts';

/**
 * The reads a write may take a while to show in, each with its own window: the list, a search,
 * and a get after a delete (a collection's objects removed by a cascade that completes later).
 */
export type ReadKind = 'lists' | 'search' | 'cascade';

/** The kind of a read, by its operation: a search, a get (a delete shown later), or a list. */
export const readKindOf = (operation: OperationName): ReadKind =>
  operation === 'search' ? 'search' : operation.startsWith('get') ? 'cascade' : 'lists';

/** How long, in ms, a write may take to show in each kind of read. */
export type Windows = Record<ReadKind, number>;

/**
 * The windows of a run: `--settle`, when given, for every kind (the run's override); else what
 * the description states (`consistency`), each kind it leaves out at once (0).
 */
export function windowsOf(
  consistency: Partial<Windows> | undefined,
  settleMs: number | undefined,
): Windows {
  const of = (kind: ReadKind) => Math.max(0, settleMs ?? consistency?.[kind] ?? 0);
  return { lists: of('lists'), search: of('search'), cascade: of('cascade') };
}

/** What the windows saw: how long the target took to show its writes, at most. */
export interface SettleReport {
  /** The longest window of the run (ms; 0: every read at once). */
  ms: number;
  /** Reads that did not show a write at first and were asked again. */
  polls: number;
  /** The longest time a write took to show, among the reads that had to wait. */
  maxLagMs: number;
}

const POLL_MS = 100;

/** Thrown by an attempt that does not show what it waits for yet: asked again, within its window. */
export class NotYet extends Error {
  override name = 'NotYet';
}

/**
 * Reads that follow a write (a list, a search, a get after a delete) on a deployment that becomes
 * consistent a moment later: each is asked again until it shows the write or its window is over.
 */
export class Settle {
  readonly report: SettleReport;
  readonly windows: Windows;

  constructor(windows: number | Windows) {
    this.windows =
      typeof windows === 'number' ? { lists: windows, search: windows, cascade: windows } : windows;
    this.report = { ms: Math.max(...Object.values(this.windows)), polls: 0, maxLagMs: 0 };
  }

  /**
   * Runs `attempt` until it passes (no failure, no divergence, no `NotYet`) or the longest window
   * of `kinds` is over; `onRetry` runs before each new attempt.
   */
  async until<T>(
    attempt: () => Promise<T>,
    kinds: ReadKind | readonly ReadKind[] = 'lists',
    onRetry?: () => void,
  ): Promise<T> {
    const window = Math.max(...[kinds].flat().map((kind) => this.windows[kind]));
    const started = performance.now();
    let polled = false;
    for (;;) {
      try {
        const value = await attempt();
        if (polled) {
          const lag = Math.round(performance.now() - started);
          this.report.maxLagMs = Math.max(this.report.maxLagMs, lag);
        }
        return value;
      } catch (error) {
        const left = window - (performance.now() - started);
        const notShownYet =
          error instanceof NotYet || error instanceof CheckFailure || error instanceof Divergence;
        if (!notShownYet || left <= 0) throw error;
        polled = true;
        this.report.polls += 1;
        await new Promise((resume) => setTimeout(resume, Math.min(POLL_MS, left)));
        onRetry?.();
      }
    }
  }
}

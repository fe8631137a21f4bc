import { CheckFailure } from './failure.ts';
import { Divergence } from './judges/verdict.ts';

/** What `--settle` saw: how long the target took to show its writes, at most. */
export interface SettleReport {
  /** The time a read after a write may take to show it (`--settle`, ms; 0: at once). */
  ms: number;
  /** Reads that did not show a write at first and were asked again. */
  polls: number;
  /** The longest time a write took to show, among the reads that had to wait. */
  maxLagMs: number;
}

const POLL_MS = 100;

/** Thrown by an attempt that does not show what it waits for yet: asked again, within --settle. */
export class NotYet extends Error {
  override name = 'NotYet';
}

/**
 * Reads that follow a write (a list, a search) on a deployment whose index becomes consistent a
 * moment later: each is asked again until it shows the write or `--settle` is over.
 */
export class Settle {
  readonly report: SettleReport;

  constructor(ms: number) {
    this.report = { ms, polls: 0, maxLagMs: 0 };
  }

  /** Runs `attempt` until it passes (no failure, no divergence) or the settle time is over. */
  async until<T>(attempt: () => Promise<T>): Promise<T> {
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
        const left = this.report.ms - (performance.now() - started);
        const notShownYet =
          error instanceof NotYet || error instanceof CheckFailure || error instanceof Divergence;
        if (!notShownYet || left <= 0) throw error;
        polled = true;
        this.report.polls += 1;
        await new Promise((resume) => setTimeout(resume, Math.min(POLL_MS, left)));
      }
    }
  }
}

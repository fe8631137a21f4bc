/**
 * The target's clock, as its creation dates show it: how fine they are (its resolution), and the
 * spacing of a sequence's collection creations past it. The spec orders the list by creation date;
 * collections created within one tick of a coarse clock (whole seconds) share one date, and any
 * order of them is right, so a walk of them could never show the order broken (COLL-LIST-3 not
 * judged). Explore spaces the creations a later walk orders, so that it can.
 */

/** Resolutions a creation date may have, coarsest first (a day, an hour, a minute, ..., 10 ms). */
const UNITS = [86_400_000, 3_600_000, 60_000, 1_000, 100, 10] as const;

/**
 * The coarsest resolution explore waits out between two creations: a coarser clock (minutes, a
 * DATE column's days) would make a run wait too long, and its order is reported as not judged.
 */
const MAX_SPACING_MS = 1_000;

/** The most creations of one sequence spaced: a bound on how long spacing makes a sequence. */
const MAX_SPACED = 4;

/** What the run has seen of the target's creation dates, shared by its sequences. */
export class CreationClock {
  #dates: number[] = [];
  /** A spaced creation still got the date of the one before it: the clock does not move. */
  #still = false;

  /** A creation date the target answered (ms since the epoch), when it showed one. */
  saw(date: number | undefined): void {
    if (date !== undefined && this.#dates.length < 64) this.#dates.push(date);
  }

  /**
   * The resolution the creation dates seen so far have: the coarsest unit every one of them is a
   * whole multiple of (1: milliseconds, or none seen).
   */
  resolution(): number {
    if (this.#dates.length === 0) return 1;
    return UNITS.find((unit) => this.#dates.every((date) => date % unit === 0)) ?? 1;
  }

  /**
   * How long to wait past a creation for the next one to get a later date; 0: no spacing.
   * @note The coarsest unit up to MAX_SPACING_MS that divides every date, not the coarsest of
   * all: a date of whole seconds is a whole minute one time in 60, and a clock of whole minutes
   * or days is found out by a spaced creation that got the date before it (`stood`).
   */
  spacing(): number {
    if (this.#still || this.#dates.length === 0) return 0;
    const unit = UNITS.find(
      (each) => each <= MAX_SPACING_MS && this.#dates.every((date) => date % each === 0),
    );
    return unit ?? 0;
  }

  /** A spaced creation got the date of the one before: stop spacing (a frozen clock). */
  stood(): void {
    this.#still = true;
  }
}

/** One sequence's creations, spaced past the clock's resolution while a later walk orders them. */
export class CreationSpacing {
  /** The step (1-based) of the sequence's last walk that judges the order; 0: none. */
  orderedUntil = 0;
  #spaced = 0;
  /** When the last creation was answered (`performance.now()`), and the date it got. */
  #last: { at: number; date: number | undefined } | undefined;

  constructor(readonly clock: CreationClock) {}

  /**
   * Waits, before a creation at step `step`, until the last one is a tick of the target's clock
   * behind: only for creations a later walk orders, at most MAX_SPACED a sequence.
   */
  async before(step: number, walking: boolean): Promise<boolean> {
    const wait = this.clock.spacing();
    // @note Not inside a walk: a walk holds the gate, and other sequences would wait for it.
    if (wait === 0 || walking || step >= this.orderedUntil || this.#spaced >= MAX_SPACED)
      return false;
    if (!this.#last) return false;
    const left = this.#last.at + wait - performance.now();
    if (left > 0) {
      this.#spaced += 1;
      await new Promise((resume) => setTimeout(resume, left));
    }
    // A tick of the target's clock has passed since the last creation was answered.
    return true;
  }

  /** A creation answered, with the date it got (`spaced`: a tick had passed since the last). */
  after(date: number | undefined, spaced: boolean): void {
    this.clock.saw(date);
    if (spaced && date !== undefined && date === this.#last?.date) this.clock.stood();
    this.#last = { at: performance.now(), date };
  }
}

/**
 * The spacing of a sequence of `steps`: its creations are spaced up to its last walk of the list
 * (the one step that judges their order, COLL-LIST-3), and none after it.
 */
export function spacingOf(
  clock: CreationClock,
  steps: ReadonlyArray<{ kind: string; key?: unknown }>,
): CreationSpacing {
  const spacing = new CreationSpacing(clock);
  steps.forEach((step, i) => {
    if (step.kind === 'walk' && step.key !== 'inactive') spacing.orderedUntil = i + 1;
  });
  return spacing;
}

/**
 * How much the suite, explore and sweep take from a target, so that a broken or hostile one ends a
 * check with a clear message instead of growing the process without bound. Each has an option;
 * docs/robustness.md lists them with the figures they were measured at.
 */
export const LIMITS = {
  /**
   * The longest body read from one answer (`--max-body-bytes`). A page of a million small items
   * is 11 MB; parsed, four at once, it held 565 MB.
   */
  maxBodyBytes: 8 * 1024 * 1024,
  /**
   * The most items one walk of a list collects, over all its pages (`--max-walk-items`): four
   * walks at once of 100,000 items each held 307 MB on Node 24, of 50,000 items 271 MB (V8 lets
   * its young generation grow). One page is bounded by the body.
   */
  maxWalkItems: 20_000,
  /** The most pages one walk follows. */
  maxWalkPages: 1_000,
  /** The largest target description file read. */
  maxDescriptionBytes: 1024 * 1024,
  /** The most YAML aliases a target description may use (an alias bomb has millions). */
  maxYamlAliases: 100,
  /**
   * The deepest a target description nests, its YAML aliases expanded: an alias inside its own
   * anchor is a cycle, deeper than any limit. A description's bodies are a few levels deep.
   */
  maxDescriptionDepth: 64,
  /**
   * The deepest a target's answer may nest objects and arrays: four times the 64 levels of a
   * request body the kit's mock takes, and far below the few thousand levels at which
   * JSON.stringify, or any walk over the answer, overflows the stack.
   */
  maxAnswerDepth: 256,
  /** The deepest a recorded or HAR body may nest: deeper is not a request an app sends. */
  maxRecordedDepth: 64,
  /**
   * How long the clean-up after an interruption (a signal, explore's budget, a stalled target)
   * may take in all before the run gives up and exits.
   */
  cleanupDeadlineMs: 15_000,
  /**
   * How long one request may take, its whole body read (`--request-timeout`): past it the target
   * stalled and the run ends, cleans up and exits 2.
   */
  requestTimeoutMs: 10_000,
} as const;

/**
 * Ctrl-C and CI's cancel (SIGINT, SIGTERM) during a run that writes: the first signal stops new
 * work and lets the run clean up within a deadline, then the command prints what is left and
 * exits 130 or 143 as a shell would; a second signal exits at once.
 */
import { printError } from './output.ts';

/** The exit status of a process ended by `signal`, as a shell reports it. */
export function signalExitCode(signal: string): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

export interface Interruption {
  /** Aborted by the first signal, with the signal's name as its reason. */
  signal: AbortSignal;
  /** Stops listening: the process's default handling is back. */
  dispose(): void;
}

/** Listens for SIGINT and SIGTERM until disposed, saying on stderr what it does. */
export function listenForInterrupt(
  write: (line: string) => void = (line) => printError(`${line}\n`),
): Interruption {
  const controller = new AbortController();
  const on = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      write(`answers-contract: ${signal} again: exiting now, without cleaning up`);
      process.exit(signalExitCode(signal));
    }
    write(
      `answers-contract: ${signal}: stopping, and deleting what the run created (a second ${signal} exits at once)`,
    );
    controller.abort(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, on);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const signal of signals) process.off(signal, on);
    },
  };
}

/**
 * The line that deletes the rest of a run's data: `sweep --run` takes the keys from the same
 * environment variables (ANSWERS_API_KEY and ANSWERS_OTHER_ACCOUNT_KEY) and sweeps each account.
 */
export function sweepLine(options: { runId: string; baseUrl: string }): string {
  return `Delete the rest of this run's data with: npx --no -- answers-contract sweep --base-url ${options.baseUrl} --run ${options.runId}`;
}

/**
 * What a run that ended early prints last: each id left behind once, and the `sweep` line that
 * deletes the rest of this run's data.
 */
export function leftBehindLines(options: {
  leftBehind: readonly string[];
  runId: string;
  baseUrl: string;
}): string[] {
  const left = [...new Set(options.leftBehind)];
  if (left.length === 0) return ['Left behind: nothing'];
  return [`Left behind: ${left.join(', ')}`, sweepLine(options)];
}

/**
 * Ctrl-C and CI's cancel (SIGINT, SIGTERM) during a run that writes: the first signal stops new
 * work and lets the run clean up within a deadline, then the command prints what is left and
 * exits 130 or 143 as a shell would; a second signal exits at once.
 */
import { print, printError, writeHtml, writeJson, writeXml } from './output.ts';

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
function sweepLine(options: { runId: string; baseUrl: string }): string {
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

/** A run as every command ends it: its id, what it left, and the signal that cut it short. */
interface EndedRun {
  runId: string;
  leftBehind: readonly string[];
  interrupted?: { signal: string } | undefined;
}

/**
 * How every command ends a run it finished or a signal cut short: the report as printed (with the
 * `sweep` line when data is left behind and the report does not print it itself), the JSON and
 * JUnit files asked for, then, after a signal, what it left and the exit status a shell expects;
 * else the run's own exit status. One place, so that the suite, explore and replay end alike.
 */
export async function endRun<R extends EndedRun>(
  report: R,
  how: {
    baseUrl: string;
    /** The report as printed, and whether it already names what was left (explore's does). */
    text: string;
    namesLeftBehind?: boolean;
    json?: { file: string | undefined; value: unknown };
    junit?: { file: string | undefined; xml: () => string };
    /** `--html`: the page drawn from the report, redacted first as `--json`'s (`writeHtml`). */
    html?: { file: string | undefined; page: (redacted: R) => string };
    /** The first line printed after a signal: what the signal cut short. */
    interruptedBy: (signal: string) => string;
    /** The exit status of the run, not interrupted. */
    exitStatus: () => number;
  },
): Promise<number> {
  const run = { ...report, baseUrl: how.baseUrl };
  print(`${how.text}\n`);
  if (!how.namesLeftBehind && !report.interrupted && report.leftBehind.length > 0)
    print(`${sweepLine(run)}\n`);
  if (how.json?.file) await writeJson(how.json.file, how.json.value);
  if (how.junit?.file) await writeXml(how.junit.file, how.junit.xml());
  if (how.html?.file) await writeHtml(how.html.file, report, how.html.page);
  if (report.interrupted) {
    const { signal } = report.interrupted;
    print(`${[how.interruptedBy(signal), ...leftBehindLines(run)].join('\n')}\n`);
    return signalExitCode(signal);
  }
  return how.exitStatus();
}

/**
 * A run that ended in an error after it made data (`RunEnded`): prints what it left and how to
 * delete it (`always`: even "nothing", which after a stall is news too), and gives the error that
 * ended it, for the caller to throw.
 */
export function endedEarly(
  error: { leftBehind: readonly string[]; runId: string },
  baseUrl: string,
  always: boolean,
): void {
  if (always || error.leftBehind.length > 0)
    print(
      `${leftBehindLines({ leftBehind: error.leftBehind, runId: error.runId, baseUrl }).join('\n')}\n`,
    );
}

/**
 * `answers-mock --record FILE`: what the mock answers in a dev session, recorded as it goes. Each
 * API exchange is on disk before its answer is sent (the whole recording written to a temporary
 * file, then renamed over FILE), so the file is always a whole recording and a `kill -9` loses
 * nothing a client saw. Writes that fall due together are one write.
 */
import { rename, writeFile } from 'node:fs/promises';
import type { ApiKey } from '../core/api-key.ts';
import type { AnswersMock } from '../core/mock.ts';
import { recordingMock } from '../core/recorder.ts';
import { isControlPath } from '../core/serve.ts';

export interface SessionRecording {
  mock: AnswersMock;
  /** Writes what is recorded so far (and waits for any write under way). */
  write(): Promise<void>;
}

/**
 * Records what `mock` answers into `file`. The file is written (empty) at once: a path that
 * cannot be written fails here, at start, not at the end. A write that fails later is said once
 * on stderr; the mock goes on answering.
 */
export async function startSessionRecording(
  file: string,
  mock: AnswersMock,
  keys: () => readonly ApiKey[],
  data: () => readonly unknown[],
): Promise<SessionRecording> {
  const recorder = recordingMock(mock, keys, () => 'answers-mock session', data);
  const temporary = `${file}.${process.pid}.tmp`;
  const persist = async () => {
    await writeFile(temporary, `${JSON.stringify(recorder.recording(), null, 2)}\n`, 'utf8');
    await rename(temporary, file);
  };
  await persist();
  let last: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  let warned = false;
  /** A write that begins after the one under way, and so holds every exchange recorded by now. */
  const write = (): Promise<void> => {
    if (next) return next;
    const queued = last.then(() => {
      next = undefined;
      return persist();
    });
    next = queued;
    last = queued.catch((error: NodeJS.ErrnoException) => {
      if (!warned) console.error(`answers-mock: --record ${file}: ${error.code ?? error.message}`);
      warned = true;
    });
    return last;
  };
  return {
    mock: {
      ...recorder.mock,
      handle: async (request, options) => {
        const handled = await recorder.mock.handle(request, options);
        if (!isControlPath(request.path)) await write();
        return handled;
      },
    },
    write,
  };
}

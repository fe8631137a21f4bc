/**
 * A process that takes a state file's lock when told to, for the lock race test: started once
 * and told to race many times, since starting a process (tsx compiles the sources) costs seconds
 * on a loaded machine and the race needs two processes, not two starts of the CLI.
 *
 * Messages: `{ race: n, file }` takes the lock of `file` and answers `{ race: n, held: true }`,
 * or `{ race: n, held: false, message }` when refused, or when told to wait (the message then
 * starts `waits: `: two starts on one host have no reason to wait); `'release'` releases the
 * lock held and answers `'released'`.
 */
import { StateFilePaths } from '../../../src/node/state-file/files.ts';
import { lockStateFile } from '../../../src/node/state-file/lock.ts';

let release: (() => void) | undefined;
process.on('message', (message: { race: number; file: string } | 'release') => {
  if (message === 'release') {
    release?.();
    release = undefined;
    process.send!('released');
    return;
  }
  const { race, file } = message;
  let answered = false;
  const answer = (held: boolean, text?: string) => {
    if (!answered) process.send!({ race, held, ...(text === undefined ? {} : { message: text }) });
    answered = true;
  };
  lockStateFile(new StateFilePaths(file), {
    onNotice: (notice) => answer(false, `waits: ${notice}`),
  })
    .then((done) => {
      if (answered) return; // told to wait: answered already, the lock is left to the process's exit
      release = done;
      answer(true);
    })
    .catch((error: unknown) => answer(false, (error as Error).message));
});
process.send!('ready');

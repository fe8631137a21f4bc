/**
 * The story the README shows for `answers-contract explore` (its `explore-story` block) is what the
 * command prints: explore is run from the sources against the independent server with the
 * walk-offset-token variant, its output compared (run ids, uuids, port and time masked), and the
 * story's replay line replays the same steps.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../../docs/doc-blocks.ts';
import { block } from '../../docs/readme-plan.ts';
import { startIndependentServer } from '../../independent/server.ts';
import { contractBin } from '../../support/bins.ts';

it('shows what explore prints for walk-offset-token on the independent server, and it replays', async () => {
  const shown = block('explore-story').body;
  const replay = /^Replay exactly this sequence: npx --no -- (answers-contract explore .*)$/m.exec(
    shown,
  )![1]!;
  const server = await startIndependentServer({ variant: 'walk-offset-token' });
  /** The CLI bundled from the sources (test/support/bins.ts), with the server's keys in the environment, as the story's run had. */
  const cli = async (args: string[]) => {
    const ran = await promisify(execFile)(process.execPath, contractBin(...args), {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        ANSWERS_API_KEY: server.keys.full,
        ANSWERS_READONLY_KEY: server.keys.readonly,
        ANSWERS_OTHER_ACCOUNT_KEY: server.keys.otherAccount,
        ANSWERS_INACTIVE_KEY: server.keys.inactive,
      },
    }).then(
      () => expect.fail('explore agreed with a seeded bug'),
      (error: { code: number; stdout: string }) => error,
    );
    expect(ran.code).toBe(1);
    return ran.stdout;
  };
  const mask = (text: string) =>
    text
      .replace(/answers-contract-[0-9a-z]{12}-x/g, 'answers-contract-<run>-x')
      .replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>')
      .replace(/ in \d+\.\d s /, ' in <seconds> s ');
  try {
    // The run of the story: its replay line without --replay, on this server's port.
    const args = replay
      .replace(/ --replay '.*'$/, '')
      .replace(/http:\/\/127\.0\.0\.1:\d+/, server.url)
      .split(' ')
      .slice(1);
    const printed = await cli(args);
    // What it reached is cut at "…" in the README.
    const cut = printed.replace(/\nReached:.*\n(?: {9}.*\n)*/, '\n…\n');
    expect(mask(shown)).toBe(mask(cut));
    // The replay line replays the same steps (names carry the sequence's number: masked).
    const steps = (text: string) =>
      mask(text)
        .split('\n')
        .filter((line) => /^(\d+\. |[A-Z]+-[A-Z0-9-]+: )/.test(line))
        .map((line) => line.replace(/-x\d+-/g, '-x<n>-'));
    const replayed = await cli([...args, '--replay', /--replay '(.*)'$/.exec(replay)![1]!]);
    expect(steps(shown).length).toBeGreaterThan(2);
    expect(steps(replayed)).toEqual(steps(shown));
  } finally {
    await server.close();
  }
}, 180_000);

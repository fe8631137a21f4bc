/**
 * A story's replay line pastes as printed: keys given as options are never printed; the story
 * names the variables to set, and with them set the line replays the same divergence.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startIndependentServer } from '../../independent/server.ts';
import { contractBin } from '../../support/bins.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function cli(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, contractBin(...args), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  }).then(
    () => expect.fail('explore agreed with a seeded bug'),
    (error: { code: number; stdout: string }) => error,
  );
}

it('keys given as options: the story says which variables the replay line reads', async () => {
  const server = await startIndependentServer({ variant: 'metadata-numbers-int32' });
  try {
    const { keys } = server;
    const first = await cli([
      'explore',
      '--destructive',
      '--base-url',
      server.url,
      '--target',
      'test/independent/target.yaml',
      '--concurrency',
      '1',
      '--seed',
      '1',
      '--api-key',
      keys.full,
      '--readonly-key',
      keys.readonly,
      '--other-account-key',
      keys.otherAccount,
      '--inactive-key',
      keys.inactive,
    ]);
    expect(first.code).toBe(1);
    for (const key of Object.values(keys)) expect(first.stdout).not.toContain(key);
    expect(first.stdout).toContain(
      'set ANSWERS_API_KEY, ANSWERS_READONLY_KEY, ANSWERS_OTHER_ACCOUNT_KEY, ANSWERS_INACTIVE_KEY to the keys this run was given',
    );
    const line = /^Replay exactly this sequence: npx --no -- answers-contract (.*)$/m.exec(
      first.stdout,
    )![1]!;
    const args = line.match(/'[^']*'|\S+/g)!.map((arg) => arg.replace(/^'(.*)'$/, '$1'));
    const replayed = await cli(args, {
      ANSWERS_API_KEY: keys.full,
      ANSWERS_READONLY_KEY: keys.readonly,
      ANSWERS_OTHER_ACCOUNT_KEY: keys.otherAccount,
      ANSWERS_INACTIVE_KEY: keys.inactive,
    });
    expect(replayed.code).toBe(1);
    const clause = (text: string) => /^([A-Z]+-[A-Z0-9-]+): /m.exec(text)?.[1];
    expect(clause(replayed.stdout)).toBe(clause(first.stdout));
  } finally {
    await server.close();
  }
}, 120_000);

/**
 * The suite, `explore` and `replay` take the options of how a run sends under the same names,
 * with the same ranges and the same environment variables (src/contract/cli-options.ts,
 * `runOptions`). Before, each command defined them its own way: explore took `--concurrency 0`
 * and `--max-body-bytes 5`, and only the suite read ANSWERS_CONTRACT_CONCURRENCY and
 * ANSWERS_CONTRACT_SETTLE. Parsed in-process: a usage error is thrown before anything is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseSuiteOptions } from '../../src/contract/cli.ts';
import { UsageError } from '../../src/contract/cli-options.ts';
import { exploreCommand } from '../../src/contract/explore/command.ts';
import { replayCommand } from '../../src/contract/replay/command.ts';

const TARGET = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'run-options-key'];

/** Each command, parsing `args` as its bin would be given them. */
const COMMANDS: Record<string, (args: string[]) => Promise<unknown>> = {
  suite: async (args) => parseSuiteOptions(['node', 'answers-contract', ...TARGET, ...args]),
  explore: (args) =>
    exploreCommand(
      ['node', 'answers-contract', 'explore', ...TARGET, '--destructive', ...args],
      () => Promise.reject(new Error('no model: the options were taken')),
    ),
  replay: (args) =>
    replayCommand(['node', 'answers-contract', 'replay', ...TARGET, 'missing.json', ...args], {}),
};

const CASES: Array<{ name: string; args: string[]; env?: Record<string, string>; says: RegExp }> = [
  { name: '--concurrency 0', args: ['--concurrency', '0'], says: /from 1 to 32/ },
  { name: '--concurrency 33', args: ['--concurrency', '33'], says: /from 1 to 32/ },
  { name: '--settle -1', args: ['--settle', '-1'], says: /settle/ },
  { name: '--max-body-bytes 5', args: ['--max-body-bytes', '5'], says: /from 1024/ },
  { name: '--max-walk-items 0', args: ['--max-walk-items', '0'], says: /from 1 to/ },
  {
    name: 'ANSWERS_CONTRACT_CONCURRENCY=many',
    args: [],
    env: { ANSWERS_CONTRACT_CONCURRENCY: 'many' },
    says: /ANSWERS_CONTRACT_CONCURRENCY=many/,
  },
  {
    name: 'ANSWERS_CONTRACT_SETTLE=soon',
    args: [],
    env: { ANSWERS_CONTRACT_SETTLE: 'soon' },
    says: /ANSWERS_CONTRACT_SETTLE=soon/,
  },
];

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['ANSWERS_CONTRACT_CONCURRENCY', 'ANSWERS_CONTRACT_SETTLE'])
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
});

describe.each(Object.keys(COMMANDS))('%s', (command) => {
  it.each(CASES)('refuses $name as a usage error, naming it', async ({ args, env, says }) => {
    delete process.env.ANSWERS_CONTRACT_CONCURRENCY;
    delete process.env.ANSWERS_CONTRACT_SETTLE;
    Object.assign(process.env, env);
    const refused = await COMMANDS[command]!(args).then(
      () => expect.fail(`${command} took ${args.join(' ') || JSON.stringify(env)}`),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toMatch(says);
  });
});

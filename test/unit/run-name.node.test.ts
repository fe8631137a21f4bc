import { describe, expect, it } from 'vitest';
import { newRunId, parseRunName, runName } from '../../src/contract/target-api/run-name.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const run = (ms: number) => newRunId(ms, 0.5);
const HOUR_AGO = run(NOW - 3_600_000);

describe('parseRunName: only names the kit writes, with a run time it could have written', () => {
  it.each([
    ['a suite check', runName(HOUR_AGO, 't3-main')],
    ['a listing check', runName(HOUR_AGO, 't12-walk-2')],
    ['an explore collection', runName(HOUR_AGO, 'x41-7')],
    ['an explore odd request', runName(HOUR_AGO, 'x2-odd')],
    ['an explore collection renamed', runName(HOUR_AGO, 'x41-r3')],
    ['a refused create', runName(HOUR_AGO, 'refused-missing-key')],
    [
      'a run started in the last minute of the clock skew',
      runName(run(NOW + 59 * 60_000), 't1-main'),
    ],
  ])('%s is a run name', (_, name) => {
    expect(parseRunName(name, NOW)?.runId).toBe(name.split('-')[2]);
  });

  it.each([
    ['a word where the run id goes', 'answers-contract-review-notes'],
    ['a run name inside a longer name', `Team notes on ${runName(HOUR_AGO, 't1-main')}`],
    ['a run name with more after it', `${runName(HOUR_AGO, 't1-main')} (copy)`],
    ['an unknown shape after the run id', runName(HOUR_AGO, 'backup')],
    ['upper case', runName(HOUR_AGO, 't1-Main')],
    ['a run before the kit existed', runName(run(Date.UTC(2020, 0, 1)), 't1-main')],
    ['a word that reads as a run id of 2043', 'answers-contract-testsabcdefg-t1-main'],
    ['a run in the future', runName(run(NOW + 2 * 3_600_000), 't1-main')],
    ['a run id too long', runName(`${HOUR_AGO}zz`, 't1-main')],
    ['no name at all', undefined],
    ['a name that is not a string', 42],
  ])('%s is not', (_, name) => {
    expect(parseRunName(name, NOW)).toBeUndefined();
  });

  it('reads back the start time a run id was made from', () => {
    expect(parseRunName(runName(HOUR_AGO, 't1-main'), NOW)?.startedAt).toBe(NOW - 3_600_000);
  });
});

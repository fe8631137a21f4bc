/**
 * The model of `answers-contract explore` (and of `explore` from code): the mock, started empty
 * (the dev accounts and keys, no data) on a free loopback port, its API alone; reset before each
 * sequence. It has the shape of what the `startModel` option of `explore`
 * (`answers-mock-kit/contract`) starts, said again here because this layer knows nothing of the
 * contract suite.
 */
import { createMock } from '../create-mock.ts';
import { emptyState } from '../seed/empty-state.ts';
import { startServer } from './server.ts';

export interface StartedExploreModel {
  /** The API root, with its prefix. */
  baseUrl: string;
  keys: { full: string; readonly: string; otherAccount: string; inactive: string };
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startExploreModel(): Promise<StartedExploreModel> {
  const mock = await createMock({ initialState: emptyState });
  const server = await startServer({ mock, port: 0, quiet: true, control: false });
  return {
    baseUrl: `${server.url}/api/answers/v1`,
    keys: {
      full: 'answers_test_full_acme',
      readonly: 'answers_test_readonly_acme',
      otherAccount: 'answers_test_full_globex',
      inactive: 'answers_test_inactive_acme',
    },
    reset: () => mock.controls.reset(),
    stop: () => server.close(),
  };
}

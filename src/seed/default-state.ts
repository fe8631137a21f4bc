import type { Snapshot } from '../core/snapshot/snapshot.ts';
import defaultFixture from '../../fixtures/default-state.json' with { type: 'json' };

/** The default seed (`fixtures/default-state.json`): what `npm start` and `createMock()` serve. */
export const defaultState = defaultFixture as Snapshot;

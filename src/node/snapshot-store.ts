/**
 * Where `answers-contract snapshot` builds its state: the mock, started empty (the dev accounts
 * and keys, no data), in process. Each collection the crawl read is added through `mock.db`, so
 * that it is stored as the API would store it (the mock's own ids and rules, unique names, the
 * limits of a stored value) with the deployment's times; what the mock refuses is said, not
 * copied. Its shape is that of the contract's `SnapshotStore`, said again here because this layer
 * knows nothing of the contract suite.
 */
import { createMock } from '../create-mock.ts';
import { startServer } from './server.ts';
import { initialState } from './start-data.ts';
import { MockDbError } from '../core/record-table.ts';
import { DEV_KEYS_BY_ROLE } from '../seed/dev-keys.ts';
import { emptyState } from '../seed/empty-state.ts';

interface CollectionToAdd {
  name: string;
  metadata: Record<string, unknown>;
  createdAt?: string | undefined;
  updatedAt?: string | undefined;
  objects: Array<{
    content: unknown;
    createdAt?: string | undefined;
    updatedAt?: string | undefined;
    version?: number | undefined;
  }>;
}

export interface SnapshotStore {
  add(
    role: 'full' | 'otherAccount',
    collection: CollectionToAdd,
  ): Promise<{ id: string; objects: Array<{ id: string }> } | { refused: string }>;
  devKeys: readonly string[];
  state(): Promise<unknown>;
}

/** The times a record takes: both when known, the one known for both, else the mock's clock. */
function times(created: string | undefined, updated: string | undefined) {
  const made = created ?? updated;
  if (made === undefined) return {};
  const changed = updated !== undefined && updated >= made ? updated : made;
  return { created_at: made, updated_at: changed };
}

export async function startSnapshotStore(): Promise<SnapshotStore> {
  const mock = await createMock({ initialState: emptyState });
  const state = mock.controls.export();
  const accountOf = (key: string) => state.api_keys.find((each) => each.key === key)!.account_id;
  const accounts = {
    full: accountOf(DEV_KEYS_BY_ROLE.full),
    otherAccount: accountOf(DEV_KEYS_BY_ROLE.otherAccount),
  };
  return {
    async add(role, collection) {
      let made: { id: string } | undefined;
      try {
        made = await mock.db.collections.create({
          account_id: accounts[role],
          name: collection.name,
          metadata: collection.metadata,
          ...times(collection.createdAt, collection.updatedAt),
        });
        const objects: Array<{ id: string }> = [];
        for (const object of collection.objects) {
          const stored = await mock.db.objects.create({
            collection_id: made.id,
            content: object.content as Record<string, unknown>,
            ...times(object.createdAt, object.updatedAt),
            ...(object.version !== undefined ? { version: object.version } : {}),
          });
          objects.push(stored);
        }
        // @note Handed back and let go: the command writes them out at once, so the mock holds
        // the collections alone (their names stay unique) and memory stays one collection's
        // objects, whatever the deployment holds. Its id sequences still count them.
        for (const object of objects) await mock.db.objects.delete(object as never);
        return { id: made.id, objects };
      } catch (error) {
        if (!(error instanceof MockDbError)) throw error;
        // @note A collection is copied whole or not at all: its objects go with it.
        if (made) await mock.db.collections.delete(made as never);
        return { refused: error.message };
      }
    },
    devKeys: state.api_keys.map((each) => each.key),
    /** The state as `GET /__mock/state` exports it, less the objects `add` handed back. */
    state: async () => mock.controls.export(),
  };
}

/**
 * The mock loaded with a snapshot (either form of a state, as `--fixture` reads it), served on a
 * free loopback port for `answers-contract diff`, with its dev keys: what the snapshot's data
 * answers on our openapi.yaml. The state is given back as the mock exports it.
 */
export async function serveSnapshot(file: string): Promise<{
  baseUrl: string;
  keys: typeof DEV_KEYS_BY_ROLE;
  state: unknown;
  stop: () => Promise<void>;
}> {
  const { state } = await initialState({ fixture: file }, undefined);
  const mock = await createMock({ initialState: state as never });
  const server = await startServer({ mock, port: 0, quiet: true });
  return {
    baseUrl: `${server.url}/api/answers/v1`,
    keys: DEV_KEYS_BY_ROLE,
    state: mock.controls.export(),
    stop: () => server.close(),
  };
}

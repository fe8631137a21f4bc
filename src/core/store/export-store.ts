import type { ApiKey } from '../api-key.ts';
import { compareByCreation } from '../primitives/creation-order.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import type { Store } from './store.ts';

/** Everything a store holds, as plain JSON: collections and objects in creation order. */
export function exportStore(store: Store): Omit<Snapshot, 'id_sequences'> {
  const collections = [...store.allCollections()].sort(compareByCreation);
  return structuredClone({
    accounts: store.accounts,
    api_keys: store.apiKeys as ApiKey[],
    collections,
    objects: collections.flatMap((c) => store.objectsOf(c.id)).sort(compareByCreation),
  });
}

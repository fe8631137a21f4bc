import { json } from '../http.ts';
import type { Handler, Schemas } from './handler.ts';
import { problem } from '../problem.ts';
import { toCollection } from '../store/records.ts';
import { sizeOfCollection } from '../store/store.ts';
import { noRoom } from './no-room.ts';

/**
 * `POST /collections`: creates an empty collection with a name unique in the account.
 * @see docs/spec-gaps.md GAP-WRITE-OPS, GAP-COLL-FIELDS
 */
export const createCollection: Handler = ({ state, accountId, body, prefix }) => {
  const input = body as Schemas['CollectionCreate'];
  if (state.store.findCollectionByName(accountId, input.name)) return nameTaken(input.name);
  const full = noRoom(
    state,
    0,
    sizeOfCollection({ name: input.name, metadata: input.metadata ?? {} }),
  );
  if (full) return full;
  const now = state.now();
  const record = state.store.createCollection({
    id: state.newId(accountId, 'col'),
    account_id: accountId,
    name: input.name,
    metadata: input.metadata ?? {},
    created_at: now,
    updated_at: now,
  });
  return json(201, toCollection(record, 0), { location: `${prefix}/collections/${record.id}` });
};

/** The 409 for a name another collection of the account already has. */
export function nameTaken(name: string) {
  return problem(
    'collection_name_taken',
    `A collection named "${name}" already exists in this account.`,
    {
      errors: [{ location: 'body', pointer: '/name', message: 'is already taken' }],
    },
  );
}

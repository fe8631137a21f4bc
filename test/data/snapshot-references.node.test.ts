/**
 * A snapshot's references hold or it is not loaded: every object names a collection of its own
 * account, and no object id is used twice. A refused
 * load leaves the mock's data as it was, and a mock is not created from such data.
 */
import { describe, expect, it } from 'vitest';
import { createMock, emptyState, SnapshotError, type Snapshot } from '../../src/index.ts';

const AT = '2026-01-01T00:00:00.000Z';

/** Two accounts' collections and three objects, all well formed. */
function twoAccounts(): Snapshot {
  const state = emptyState();
  const [first, second] = state.accounts;
  const collection = (id: string, account: string, name: string) => ({
    id,
    account_id: account,
    name,
    metadata: {},
    created_at: AT,
    updated_at: AT,
  });
  const object = (id: string, account: string, collectionId: string) => ({
    id,
    account_id: account,
    collection_id: collectionId,
    content: { text: id },
    created_at: AT,
    updated_at: AT,
    version: 1,
  });
  return {
    ...state,
    collections: [
      collection('col_a0000000000000000000', first!.id, 'a'),
      collection('col_b0000000000000000000', second!.id, 'b'),
    ],
    objects: [
      object('obj_a0000000000000000001', first!.id, 'col_a0000000000000000000'),
      object('obj_a0000000000000000002', first!.id, 'col_a0000000000000000000'),
      object('obj_b0000000000000000001', second!.id, 'col_b0000000000000000000'),
    ],
  };
}

describe('loading a snapshot whose references do not hold', () => {
  it.each([
    {
      name: 'an object in a collection nobody has',
      change: (state: Snapshot) => {
        state.objects[1]!.collection_id = 'col_z0000000000000000000';
      },
      message: 'Object "obj_a0000000000000000002" names collection "col_z0000000000000000000"',
    },
    {
      name: "an object in another account's collection",
      change: (state: Snapshot) => {
        state.objects[2]!.collection_id = 'col_a0000000000000000000';
      },
      message: 'Object "obj_b0000000000000000001" names collection "col_a0000000000000000000"',
    },
    {
      name: 'two objects with one id, in one collection',
      change: (state: Snapshot) => {
        state.objects[1]!.id = state.objects[0]!.id;
      },
      message: 'Duplicate id "obj_a0000000000000000001"',
    },
    {
      name: 'two objects with one id, in two collections',
      change: (state: Snapshot) => {
        state.objects[2]!.id = state.objects[0]!.id;
      },
      message: 'Duplicate id "obj_a0000000000000000001"',
    },
  ])('refuses $name and keeps the data', async ({ change, message }) => {
    const mock = await createMock({ initialState: twoAccounts() });
    const before = mock.controls.export();
    const state = twoAccounts();
    change(state);
    await expect(mock.controls.load(state)).rejects.toThrow(SnapshotError);
    await expect(mock.controls.load(state)).rejects.toThrow(message);
    expect(mock.controls.export()).toEqual(before);
    await expect(createMock({ initialState: state })).rejects.toThrow(message);
  });

  it('loads the same snapshot when its references hold', async () => {
    const mock = await createMock({ initialState: emptyState() });
    await mock.controls.load(twoAccounts());
    expect(mock.controls.export().objects).toHaveLength(3);
  });
});

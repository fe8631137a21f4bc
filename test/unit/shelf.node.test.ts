import { describe, expect, it } from 'vitest';
import { Shelf } from '../../src/core/model/shelf.ts';

interface Row {
  id: string;
  n: number;
}

describe('Shelf', () => {
  it('stores each of many records placed in one turn as itself, awaited together', async () => {
    const shelf = new Shelf<Row>();
    const placed = Array.from({ length: 100 }, (_, n) => shelf.place({ id: `r${n}`, n }));
    const stored = await Promise.all(placed.map((each) => each.stored));
    stored.forEach((record, n) => {
      expect(record).toBe(placed[n]!.record);
      expect(record).toEqual({ id: `r${n}`, n });
    });
    expect(shelf.size).toBe(100);
    expect(shelf.all().map((record) => record.n)).toEqual(placed.map((_, n) => n));
  });

  it('creates a copy, finds, updates and deletes it across its @msw/data collections', async () => {
    const shelf = new Shelf<Row>();
    const given = { id: 'a', n: 1 };
    const created = await shelf.create(given);
    expect(created).not.toBe(given);
    for (let n = 0; n < 70; n++) await shelf.create({ id: `b${n}`, n });
    const updated = await shelf.update(created, (draft) => {
      draft.n = 2;
    });
    expect(shelf.findFirst((q) => q.where({ id: 'a' }))).toEqual({ id: 'a', n: 2 });
    shelf.delete(updated);
    expect(shelf.has('a')).toBe(false);
    expect(shelf.size).toBe(70);
    expect(shelf.findMany((q) => q.where({ n: (n: number) => n < 3 })).map((r) => r.id)).toEqual([
      'b0',
      'b1',
      'b2',
    ]);
  });
});

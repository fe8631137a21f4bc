import { Collection } from '@msw/data';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeRecordMarks, recordMarks } from '../../src/core/model/record-marks.ts';
import { Shelf } from '../../src/core/model/shelf.ts';

type Schema = ConstructorParameters<typeof Collection>[0]['schema'];

interface Row {
  id: string;
  n: number;
}

beforeAll(async () => {
  await recordMarks();
});

describe('record marks', () => {
  it('are read from the installed @msw/data, whose records a load can adopt', async () => {
    const marks = await recordMarks();
    expect(marks?.primaryKey.description).toBe('kPrimaryKey');
    expect(marks?.relationMap.description).toBe('kRelationMap');
  });

  it('give every adopted record one empty relation map, which refuses writes', async () => {
    const marks = (await recordMarks())!;
    const shelf = new Shelf<Row>();
    const a = shelf.place({ id: 'a', n: 1 }).record as Row & Record<symbol, Map<string, unknown>>;
    const b = shelf.place({ id: 'b', n: 2 }).record as Row & Record<symbol, Map<string, unknown>>;
    expect(a[marks.relationMap]).toBe(b[marks.relationMap]);
    expect(a[marks.relationMap]!.size).toBe(0);
    expect(() => a[marks.relationMap]!.set('owner', {})).toThrow(/define no relations/);
  });

  it("are refused when all() returns a copy, not the collection's own array", async () => {
    class Copying<S extends Schema> extends Collection<S> {
      override all() {
        return [...super.all()];
      }
    }
    expect(await probeRecordMarks(Copying as typeof Collection)).toBeNull();
  });

  it('are refused when a record taken out of all() is still counted', async () => {
    // A variant that keeps a tally: it counts records it sees added, and only its own delete
    // takes one off.
    class Tallying extends Collection<Schema> {
      #seen = 0;
      #tally = 0;
      override count() {
        const length = super.count();
        if (length > this.#seen) this.#tally += length - this.#seen;
        this.#seen = length;
        return this.#tally;
      }
      constructor(options: { schema: Schema }) {
        super(options);
        const remove = this.delete.bind(this);
        this.delete = ((...args: Parameters<typeof remove>) => {
          const deleted = remove(...args);
          this.#tally -= 1;
          this.#seen = super.count();
          return deleted;
        }) as typeof remove;
      }
    }
    expect(await probeRecordMarks(Tallying as typeof Collection)).toBeNull();
  });

  it('are refused when an updated record loses its primary key', async () => {
    class Rekeying extends Collection<Schema> {
      constructor(options: { schema: Schema }) {
        super(options);
        const update = this.update.bind(this);
        this.update = (async (...args: Parameters<typeof update>) => {
          const updated = await update(...args);
          return updated && { ...updated };
        }) as typeof update;
      }
    }
    expect(await probeRecordMarks(Rekeying as typeof Collection)).toBeNull();
  });
});

describe.each([
  ['adopted by @msw/data', {}],
  ['handed to its create', { adopt: false }],
])('Shelf with records %s', (_, options) => {
  it('stores each of many records placed in one turn as itself', async () => {
    const shelf = new Shelf<Row>(options);
    const placed = Array.from({ length: 100 }, (_, n) => shelf.place({ id: `r${n}`, n }));
    const stored = await Promise.all(placed.map((each) => each.stored ?? each.record));
    stored.forEach((record, n) => {
      expect(record).toBe(placed[n]!.record);
      expect(record).toEqual({ id: `r${n}`, n });
      expect(Object.keys(record)).toEqual(['id', 'n']);
    });
    expect(shelf.size).toBe(100);
    expect(shelf.all().map((record) => record.n)).toEqual(placed.map((_, n) => n));
  });

  it('creates a copy, finds, updates and deletes it across its @msw/data collections', async () => {
    const shelf = new Shelf<Row>(options);
    const given = { id: 'a', n: 1 };
    const created = await shelf.create(given);
    expect(created).not.toBe(given);
    for (let n = 0; n < 70; n++) await shelf.create({ id: `b${n}`, n });
    const updated = await shelf.update(created, (draft) => {
      draft.n = 2;
    });
    expect(shelf.findFirst((q) => q.where({ id: 'a' }))).toEqual({ id: 'a', n: 2 });
    shelf.delete(updated);
    expect(shelf.findFirst((q) => q.where({ id: 'a' }))).toBeUndefined();
    expect(shelf.size).toBe(70);
    expect(shelf.findMany((q) => q.where({ n: (n: number) => n < 3 })).map((r) => r.id)).toEqual([
      'b0',
      'b1',
      'b2',
    ]);
  });

  it('marks its records as @msw/data marks those it creates', async () => {
    const shelf = new Shelf<Row>(options);
    const { record, stored } = shelf.place({ id: 'a', n: 1 });
    await stored;
    const reference = await new Collection({
      schema: { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) } },
    }).create({ id: 'z' });
    const shape = (value: object) =>
      Object.getOwnPropertySymbols(value).map((symbol) => [
        symbol,
        Object.getOwnPropertyDescriptor(value, symbol)!.enumerable,
        Object.getOwnPropertyDescriptor(value, symbol)!.writable,
      ]);
    const own = (value: object) =>
      shape(value).filter(
        ([symbol]) => (symbol as symbol).description !== 'answers-mock-kit shelf collection',
      );
    expect(own(record)).toEqual(shape(reference));
    // The shelf's own mark (its collection) is not enumerable: JSON, keys and equality skip it.
    expect(shape(record).length).toBe(shape(reference).length + 1);
    expect(shape(record).find(([symbol]) => !own(record).some(([s]) => s === symbol))?.[1]).toBe(
      false,
    );
  });

  it('deletes a copy of a record, found by its id', async () => {
    const shelf = new Shelf<Row>(options);
    for (let n = 0; n < 40; n++) await shelf.create({ id: `r${n}`, n });
    shelf.delete({ id: 'r35', n: 35 });
    expect(shelf.size).toBe(39);
    expect(shelf.findFirst((q) => q.where({ id: 'r35' }))).toBeUndefined();
    expect(shelf.all().map((record) => record.n)).toHaveLength(39);
  });

  it('deletes a record updated, then updated again, from the collection that holds it', async () => {
    const shelf = new Shelf<Row>(options);
    for (let n = 0; n < 40; n++) await shelf.create({ id: `r${n}`, n });
    let record = shelf.findFirst((q) => q.where({ id: 'r3' }))!;
    for (const n of [100, 101]) {
      record = await shelf.update(record, (draft) => {
        draft.n = n;
      });
    }
    expect(shelf.findFirst((q) => q.where({ id: 'r3' }))).toEqual({ id: 'r3', n: 101 });
    shelf.delete(record);
    expect(shelf.size).toBe(39);
    expect(shelf.all().some((each) => each.id === 'r3')).toBe(false);
  });
});

import type { Faker } from '@faker-js/faker';
import type { AnswersMock } from '../core/mock.ts';
import type { CollectionRecord, ObjectRecord } from '../core/store/records.ts';

type Content = (faker: Faker, collectionName: string) => Record<string, unknown>;

/**
 * faker, loaded on the first record made: it is an optional peer of the kit (4 MB on disk that
 * a project which never calls a factory should not have to install).
 */
async function loadFaker(seed: number): Promise<{ faker: Faker; content: Content }> {
  try {
    const [{ Faker, base, en }, { content }] = await Promise.all([
      import('@faker-js/faker'),
      import('./generate-state.ts'),
    ]);
    return { faker: new Faker({ locale: [en, base], seed }), content };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new Error(
        'createFactories needs @faker-js/faker, an optional peer of answers-mock-kit: npm install --save-dev @faker-js/faker@10',
        { cause: error },
      );
    throw error;
  }
}

/** Options of {@link createFactories}. */
export interface FactoryOptions {
  /** The faker seed: the same seed gives the same names and content. Default 1. */
  seed?: number | undefined;
  /**
   * The account new collections belong to. Default: the account of the first active key that
   * may read, write and search (`acme` in the dev keys).
   */
  accountId?: string | undefined;
}

/** Makes valid records with realistic content and writes them through `mock.db`. */
export interface Factories {
  collection(overrides?: Partial<CollectionRecord>): Promise<CollectionRecord>;
  collections(count: number, overrides?: Partial<CollectionRecord>): Promise<CollectionRecord[]>;
  object(collectionId: string, overrides?: Partial<ObjectRecord>): Promise<ObjectRecord>;
  objects(
    collectionId: string,
    count: number,
    overrides?: Partial<ObjectRecord>,
  ): Promise<ObjectRecord[]>;
}

/**
 * Factories for a mock's data, for tests that need "a collection with 30 objects" without
 * writing ids, owners and timestamps by hand: ids come from the mock's own sequence (so they are
 * valid and never collide), timestamps from its clock, and names and content from a seeded faker
 * (the same in Node and in the browser).
 */
export function createFactories(mock: AnswersMock, options: FactoryOptions = {}): Factories {
  let tools: ReturnType<typeof loadFaker> | undefined;
  const fake = () => (tools ??= loadFaker(options.seed ?? 1));

  // @note Ids, owners and timestamps are left to `mock.db`, which fills them as the API does.
  const collection = async (overrides: Partial<CollectionRecord> = {}) => {
    const { faker } = await fake();
    return mock.db.collections.create({
      ...(options.accountId === undefined ? {} : { account_id: options.accountId }),
      name: `${faker.commerce.department()} ${faker.word.noun()} ${faker.string.alphanumeric(4)}`,
      metadata: { owner: faker.internet.username() },
      ...overrides,
    });
  };

  const object = async (collectionId: string, overrides: Partial<ObjectRecord> = {}) => {
    const { faker, content } = await fake();
    const parent = mock.db.collections.findFirst((q) => q.where({ id: collectionId }));
    if (!parent) throw new Error(`No collection ${collectionId} to put an object in`);
    return mock.db.objects.create({
      collection_id: collectionId,
      content: content(faker, parent.name),
      ...overrides,
    });
  };

  const times = async <T>(count: number, make: () => Promise<T>) => {
    const made: T[] = [];
    for (let i = 0; i < count; i++) made.push(await make());
    return made;
  };

  return {
    collection,
    collections: (count, overrides) => times(count, () => collection(overrides)),
    object,
    objects: (collectionId, count, overrides) =>
      times(count, () => object(collectionId, overrides)),
  };
}

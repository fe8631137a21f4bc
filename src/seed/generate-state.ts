import { Faker, base, en } from '@faker-js/faker';
import { IdSequence } from '../core/store/id-sequence.ts';
import type { CollectionRecord, ObjectRecord } from '../core/store/records.ts';
import type { Snapshot } from '../core/snapshot/snapshot.ts';
import { DEV_ACCOUNTS, DEV_KEYS } from './dev-keys.ts';

/** Options of {@link generateState}. */
export interface GenerateOptions {
  /** The faker and id seed. The same seed always gives the same data. Default 20261122. */
  seed?: number;
  /** Total number of objects; collections grow with it (about 500 objects each). Default: the small seed. */
  objects?: number;
}

const DEFAULT_SEED = 20_261_122;
const EPOCH = Date.parse('2026-01-05T09:00:00.000Z');

/** The default seed's collections: varied sizes, one empty, an account with none. */
const SMALL: Array<{ account: string; name: string; objects: number }> = [
  { account: 'acme', name: 'Product FAQ', objects: 24 },
  { account: 'acme', name: 'Support tickets', objects: 40 },
  { account: 'acme', name: 'Release notes', objects: 12 },
  { account: 'acme', name: 'Onboarding guide', objects: 5 },
  { account: 'acme', name: 'Glossary', objects: 1 },
  { account: 'acme', name: 'Drafts', objects: 0 },
  { account: 'globex', name: 'Field reports', objects: 15 },
  { account: 'globex', name: 'Supplier directory', objects: 8 },
];

function plan(faker: Faker, objects: number | undefined) {
  if (objects === undefined) return SMALL;
  const count = Math.max(4, Math.ceil(objects / 500));
  const shares = Array.from({ length: count }, (_, i) => ({
    account: i % 4 === 3 ? 'globex' : 'acme',
    name: `${faker.commerce.department()} ${faker.word.noun()} ${i + 1}`,
    objects: 0,
  }));
  // @note The last collection stays empty on purpose: an empty collection is a case to test.
  for (let i = 0; i < objects; i++) shares[i % (count - 1)]!.objects += 1;
  return shares;
}

/** Realistic, searchable object content, from `faker`'s current position. */
export function content(faker: Faker, collection: string): Record<string, unknown> {
  return {
    title: faker.helpers.arrayElement([
      () => faker.commerce.productName(),
      () => faker.hacker.phrase(),
      () => faker.company.catchPhrase(),
    ])(),
    body: `${faker.commerce.productDescription()} ${faker.company.buzzPhrase()}.`,
    tags: faker.helpers.arrayElements(
      [
        'billing',
        'account',
        'security',
        'api',
        'search',
        'export',
        'mobile',
        'integrations',
        'performance',
        'privacy',
      ],
      { min: 1, max: 3 },
    ),
    author: faker.person.fullName(),
    language: 'en',
    source: collection.toLowerCase().replaceAll(' ', '-'),
  };
}

/**
 * Generates a deterministic data set: the dev accounts and keys, collections of varied sizes
 * (one empty) and objects with realistic, searchable content.
 */
export function generateState(options: GenerateOptions = {}): Snapshot {
  const seed = options.seed ?? DEFAULT_SEED;
  const faker = new Faker({ locale: [en, base], seed });
  const ids = new IdSequence(seed);
  let clock = EPOCH;
  const tick = () =>
    new Date((clock += faker.number.int({ min: 1_000, max: 3_600_000 }))).toISOString();

  const collections: CollectionRecord[] = [];
  const objects: ObjectRecord[] = [];
  for (const entry of plan(faker, options.objects)) {
    const createdAt = tick();
    const collection: CollectionRecord = {
      id: ids.next('col'),
      account_id: entry.account,
      name: entry.name,
      metadata: {
        owner: faker.internet.username(),
        visibility: faker.helpers.arrayElement(['internal', 'public']),
      },
      created_at: createdAt,
      updated_at: createdAt,
    };
    collections.push(collection);
    for (let i = 0; i < entry.objects; i++) {
      const at = tick();
      objects.push({
        id: ids.next('obj'),
        account_id: entry.account,
        collection_id: collection.id,
        content: content(faker, entry.name),
        created_at: at,
        updated_at: at,
        version: 1,
      });
    }
  }
  return { accounts: DEV_ACCOUNTS, api_keys: DEV_KEYS, collections, objects };
}

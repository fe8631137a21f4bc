import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { DEFAULT_FIXTURE_URL, defaultFixtureText } from '../../src/seed/write-default-fixture.ts';
import { generateState } from '../../src/seed/generate-state.ts';

it('fixtures/default-state.json matches a fresh generation from the default seed', async () => {
  const committed = await readFile(DEFAULT_FIXTURE_URL, 'utf8');
  expect(committed === defaultFixtureText(), 'run `npm run fixtures` and commit the result').toBe(
    true,
  );
});

it('generates the same data for the same seed and size, and other data for another seed', () => {
  const a = generateState({ seed: 7, objects: 1_200 });
  expect(generateState({ seed: 7, objects: 1_200 })).toEqual(a);
  expect(a.objects).toHaveLength(1_200);
  const empty = a.collections.filter((c) => !a.objects.some((o) => o.collection_id === c.id));
  expect(empty.map((c) => c.id)).toEqual([a.collections.at(-1)!.id]);
  expect(generateState({ seed: 8, objects: 1_200 }).objects[0]!.id).not.toBe(a.objects[0]!.id);
});

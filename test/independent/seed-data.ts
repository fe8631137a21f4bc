/**
 * Data for `snapshot` and `diff` to read on the independent server, written through its own API
 * as a team's app would: collections with non-ASCII names and nested metadata, objects whose text
 * mixes scripts, each word of the vocabulary held by a few objects (so a search for it fits one
 * page), and a few collections of the other account that share words with the first.
 */
import type { IndependentServer } from './server.ts';

/** Words of several scripts; object `n` of the data holds three of them. */
const VOCABULARY = (
  'apricot Birne cerise Dattel elderberry Feige グアバ 葡萄 Ινδικό jujube Киви лимон ' +
  'mango nectarine olive Papaya quince rambutan satsuma tamarind ugli vanille ' +
  'Wassermelone xigua yuzu zitrone αχλάδι вишня 무화과 Kürbis'
).split(' ');

async function send(base: string, key: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}`);
  return response.json();
}

/** Runs `tasks` `width` at a time. */
async function inTurn(tasks: Array<() => Promise<void>>, width = 16): Promise<void> {
  for (let i = 0; i < tasks.length; i += width)
    await Promise.all(tasks.slice(i, i + width).map((task) => task()));
}

/**
 * Writes `collections` collections of `objectsPer` objects each to the full key's account, and
 * 3 collections of 2 objects to the other account's; returns the ids made, by account.
 */
export async function seedData(
  server: Pick<IndependentServer, 'url' | 'keys'>,
  { collections, objectsPer }: { collections: number; objectsPer: number },
): Promise<{ mine: string[]; theirs: string[] }> {
  const word = (n: number) => VOCABULARY[n % VOCABULARY.length]!;
  // @note A unique word per object too ("u17x3"), so that every object is found by some word
  // and the words of the vocabulary are held by few objects each: n/31 of them.
  const made = { mine: [] as string[], theirs: [] as string[] };
  const collection = async (key: string, i: number, count: number, into: string[]) => {
    const { result } = (await send(server.url, key, '/api/answers/collections', {
      title: `Fruits ${i}: ${word(i)} — ${word(i + 11)}`,
      meta: {
        owner: { team: `équipe ${word(i * 3)}`, tags: [word(i * 7), i] },
        active: i % 2 === 0,
      },
    })) as { result: { collectionId: string } };
    into.push(result.collectionId);
    await inTurn(
      Array.from({ length: count }, (_, j) => async () => {
        const n = i * count + j;
        await send(server.url, key, `/api/answers/collections/${result.collectionId}/objects`, {
          body: {
            text: `${word(n)} and ${word(n * 7 + 3)}, then ${word(n * 13 + 5)}! u${i}x${j}`,
            note: { lang: 'Übersicht', n: j, nested: { deeper: [word(n + 2)] } },
          },
        });
      }),
    );
  };
  await inTurn(
    Array.from(
      { length: collections },
      (_, i) => () => collection(server.keys.full, i, objectsPer, made.mine),
    ),
    4,
  );
  for (let i = 0; i < 3; i++) await collection(server.keys.otherAccount, 1000 + i, 2, made.theirs);
  return made;
}

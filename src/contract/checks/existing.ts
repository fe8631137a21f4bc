import type { CheckContext } from '../check.ts';
import { resolvePointer } from '../target-api/pointer.ts';
import type { Target } from '../target-api/target.ts';

/** Every word (letters and digits) of the string values of a JSON value, lower case. */
export function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(wordsOf);
  return [];
}

/** An object that already exists on the target, as a list or a search showed it. */
export interface ExistingObject {
  id: string;
  /** Its collection, when the way it was found says (a listObjects page, a scoped search). */
  collectionId: string | undefined;
  /** The object as it was shown: a list item or the object inside a search hit, if found there. */
  shown: unknown;
}

/**
 * A text as content: without the markup a search wraps its matches in (`<em>`, `<mark>`) and
 * the entities it escapes them with (`&amp;`); a URL (a link, a signed address) is no content.
 */
function asContent(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text.trim())) return '';
  return text.replace(/<\/?[a-z][^>]*>/gi, ' ').replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, ' ');
}

/** Every string of a JSON value, as content. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [asContent(value)];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * Words of an object's own data worth searching for: letters only (ids and dates are not
 * content), none of the words of its id or system fields, those of its longest text first (the
 * field a search is surest to index).
 */
export function contentWordsOf(target: Target, object: unknown): string[] {
  const { id, systemFields } = target.description.object;
  const excluded = new Set(wordsOf([id, ...systemFields].map((p) => resolvePointer(object, p))));
  const texts = stringsOf(object).sort((a, b) => b.length - a.length);
  return [...new Set(texts.flatMap(wordsOf))].filter(
    (word) => /^\p{L}{4,20}$/u.test(word) && !excluded.has(word),
  );
}

/**
 * The words a listing or a hit showed of an object that its fetched form lacks: a fetched object
 * is its complete data, so it holds every word any partial view of it showed. A view may cut a
 * text short at either end, mid-word: a shown word is kept when the fetched text contains it.
 */
export function wordsLost(shown: unknown, fetched: unknown): string[] {
  const text = stringsOf(fetched).join(' ').toLowerCase();
  return [...new Set(stringsOf(shown).flatMap(wordsOf))].filter(
    (word) => /^\p{L}+$/u.test(word) && !text.includes(word),
  );
}

/** Whether an object found can be fetched: its collection is known where the path needs it. */
export function canFetch(target: Target, object: ExistingObject): boolean {
  return object.collectionId !== undefined || !target.objectsNeedCollection();
}

/**
 * Objects the key can already reach, found without writing: a page of listObjects where the
 * description offers it, else searches (scoped to one collection where the search body takes
 * `{collection_ids}`) for the words of each collection's name and metadata. The reason is what
 * data would let a check find some, when none is found.
 */
export async function existingObjects(
  context: CheckContext,
  key?: string,
  enough = 6,
): Promise<{ objects: ExistingObject[]; why: string }> {
  const { target } = context;
  const objects: ExistingObject[] = [];
  const seen = new Set<string>();
  const add = (id: string | undefined, shown: unknown, collectionId: string | undefined) => {
    if (id && !seen.has(id)) {
      seen.add(id);
      objects.push({ id, collectionId, shown });
    }
  };
  if (!target.offers('listCollections')) return { objects, why: target.missing('listCollections') };
  // @note The first page is enough to find a few objects in: no walk of a long list.
  const first = await target.send('listCollections', { key });
  const collections = (first.status === 200 ? (target.itemsOf(first.json) ?? []) : []).slice(0, 8);
  const scoped = target.canScopeSearch();
  const tried: string[] = [];
  // @note The collections are looked into together; what each finds is kept in list order.
  const found = await Promise.all(
    collections.map(async (summary) => {
      const collectionId = target.collectionIdOf(summary);
      const shown: Array<[string | undefined, unknown, string | undefined]> = [];
      if (!collectionId) return shown;
      if (target.offers('listObjects')) {
        const page = await target.send('listObjects', {
          key,
          params: { collection_id: collectionId },
        });
        if (page.status === 200)
          for (const item of target.itemsOf(page.json) ?? [])
            shown.push([target.objectIdOf(item), item, collectionId]);
        return shown;
      }
      if (!target.offers('search')) return shown;
      const words = wordsOf([target.nameOf(summary) ?? '', target.metadataOf(summary) ?? {}])
        .filter((word) => word.length >= 4)
        .slice(0, 2);
      tried.push(...words);
      for (const word of words) {
        const answer = await target.send('search', {
          key,
          body: { query: word, ...(scoped ? { collection_ids: [collectionId] } : {}) },
        });
        if (answer.status !== 200) continue;
        // @note An object is put in the collection the search was scoped to only when it names
        // that collection itself: a target may ignore the scope (the spec states none).
        for (const hit of target.hitsOf(answer.json) ?? []) {
          const named = scoped && JSON.stringify(hit).includes(JSON.stringify(collectionId));
          shown.push([
            target.hitObjectIdOf(hit),
            target.hitObjectOf(hit),
            named ? collectionId : undefined,
          ]);
        }
      }
      return shown;
    }),
  );
  for (const [id, shown, collectionId] of found.flat()) add(id, shown, collectionId);
  const how = target.offers('listObjects')
    ? 'listObjects showed none in the first collections'
    : !target.offers('search')
      ? `the description offers neither listObjects nor search to find objects by`
      : `a search for the words of the collections' names and metadata (${tried.slice(0, 6).join(', ') || 'none'}) found none`;
  return {
    objects: objects.slice(0, enough),
    why: `no existing object to judge: ${how}; objects whose content shares a word with their collection's name or metadata, or --destructive, would let it run`,
  };
}

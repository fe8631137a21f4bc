import { ContractClient, type ContractResponse } from './client.ts';
import { instantOf } from './target/dates.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const pointer = (...keys: string[]) =>
  keys.map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** The first array of objects in a body: the body itself, or one of its members (one level down). */
function findItems(body: unknown): { at: string; items: Json[] } | undefined {
  if (Array.isArray(body)) return { at: '', items: body.filter(isObject) };
  if (!isObject(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.every(isObject))
      return { at: pointer(key), items: value as Json[] };
  }
  return undefined;
}

/** A member of every item matching `test`, named like `name` if several do. */
function field(items: Json[], name: RegExp, test: (value: unknown) => boolean): string | undefined {
  const keys = Object.keys(items[0] ?? {}).filter((key) => items.every((item) => test(item[key])));
  return keys.find((key) => name.test(key)) ?? (keys.length === 1 ? keys[0] : undefined);
}

/** The next-page token or link of a list body, looked for in the body and one level down. */
function findNext(body: unknown): { at: string; value: string } | undefined {
  if (!isObject(body)) return undefined;
  const named = /^(next|next_?cursor|next_?page(_?token)?|cursor|continuation|after)$/i;
  for (const [key, value] of Object.entries(body)) {
    if (named.test(key) && (typeof value === 'string' || value === null))
      return { at: pointer(key), value: String(value ?? '') };
    if (isObject(value)) {
      for (const [inner, innerValue] of Object.entries(value)) {
        if (named.test(inner) && (typeof innerValue === 'string' || innerValue === null))
          return { at: pointer(key, inner), value: String(innerValue ?? '') };
      }
    }
  }
  return undefined;
}

async function probe(http: ContractClient, path: string): Promise<ContractResponse | undefined> {
  try {
    return await http.request('GET', path);
  } catch {
    return undefined;
  }
}

/**
 * How to ask for the next page, guessed from the value list.next holds: a link is followed as it
 * is; a token goes back in a query parameter named like the member that held it (next_cursor ->
 * cursor), which is only a guess, and says so.
 */
function guessPaging(next: { at: string; value: string } | undefined): string[] {
  if (next === undefined)
    return ['  # pageToken: ?   # could not find: no next-page member in the list body'];
  if (/^(https?:\/\/|\/)/.test(next.value))
    return ['  follow: true   # the next value looks like a link'];
  const member = next.at.split('/').pop() ?? '';
  const parameter = member.replace(/^next_?/i, '') || member;
  return [
    `  pageToken: '${parameter.toLowerCase() === 'page' ? 'page_token' : parameter}'   # a guess from the member name ${member}: check it`,
    '  # pageSize: ?   # the query parameter of the page size: not visible in a body',
  ];
}

/**
 * Probes the two paths the spec states and writes a draft target description: what it guessed,
 * from what evidence, and what it could not find, as comments beside each key.
 */
export async function draftTarget(baseUrl: string, key: string): Promise<string> {
  const http = new ContractClient(baseUrl, key, false);
  const lines: string[] = [
    '# yaml-language-server: $schema=./node_modules/answers-mock-kit/dist/src/contract/target/target.schema.json',
    `# Draft target description written by \`answers-contract init\` against ${baseUrl}.`,
    '# Every value below is a guess: read the comment beside it, then fix what is wrong.',
    '',
  ];
  const list = await probe(http, '/v1/collections');
  const found = list?.status === 200 ? findItems(list.json) : undefined;
  const items = found?.items ?? [];
  const id = field(items, /^(id|.*_?id)$/i, (v) => typeof v === 'string' || typeof v === 'number');
  const date = field(items, /creat/i, (v) => instantOf(v) !== undefined);
  const count = field(
    items,
    /count|total|size|num/i,
    (v) => Number.isInteger(v) && (v as number) >= 0,
  );
  const metadata = field(items, /meta/i, isObject);
  const next = list?.status === 200 ? findNext(list.json) : undefined;
  const listWhy =
    list === undefined
      ? 'no answer'
      : list.status !== 200
        ? `answered ${list.status}`
        : `answered 200 with ${items.length} item(s)`;

  let collectionIn: string | undefined;
  let getWhy = 'not tried: no collection id was found in the list';
  const firstId = id ? items[0]?.[id] : undefined;
  if (firstId !== undefined) {
    const got = await probe(
      http,
      `/api/answers/collections/${encodeURIComponent(String(firstId))}`,
    );
    getWhy = got === undefined ? 'no answer' : `answered ${got?.status}`;
    if (got?.status === 200 && isObject(got.json)) {
      if (got.json[id!] === firstId) collectionIn = '';
      else {
        const wrapper = Object.entries(got.json).find(([, v]) => isObject(v) && v[id!] === firstId);
        collectionIn = wrapper ? pointer(wrapper[0]) : undefined;
      }
    }
  }
  const line = (key: string, value: string | undefined, why: string) =>
    value === undefined
      ? `  # ${key}: ?   # could not find: ${why}`
      : `  ${key}: '${value}'   # ${why}`;
  // A section whose every key is a comment would load as null, which the schema refuses: its
  // heading becomes a comment too.
  const section = (name: string, body: string[]) => {
    const empty = body.every((entry) => entry.trimStart().startsWith('#'));
    lines.push(empty ? `# ${name}:` : `${name}:`, ...body);
  };
  section('operations', [
    `  listCollections: GET /v1/collections   # stated by the spec; ${listWhy}`,
    `  getCollection: GET /api/answers/collections/{collection_id}   # stated by the spec; ${getWhy}`,
    '  # Not stated by the spec: give the paths your implementation uses, or leave them out',
    '  # (the checks that need them then skip, naming what is missing).',
    '  # deleteCollection: DELETE /api/answers/collections/{collection_id}',
    '  # getObject: GET /api/answers/collections/{collection_id}/objects/{object_id}',
    '  # search: POST /api/answers/search',
    '  # createCollection: POST /api/answers/collections',
    '  # createObject: POST /api/answers/collections/{collection_id}/objects',
  ]);
  section('list', [
    line(
      'items',
      found?.at,
      found ? `the array in the list body (${items.length} item(s))` : listWhy,
    ),
    line(
      'next',
      next?.at,
      next
        ? `looks like the next page (value "${next.value.slice(0, 40)}")`
        : 'no member named like next, cursor or next_page_token',
    ),
  ]);
  section('paging', guessPaging(next));
  section('collection', [
    line(
      'in',
      collectionIn,
      collectionIn === undefined
        ? `the get response (${getWhy}) did not show the collection`
        : 'where the listed id appears in the get response',
    ),
    line(
      'id',
      id && pointer(id),
      id ? `a string or number in every summary` : 'no member with an id in every summary',
    ),
    line(
      'createdAt',
      date && pointer(date),
      date ? 'a date (RFC 3339 or epoch) in every summary' : 'no date in every summary',
    ),
    line(
      'objectCount',
      count && pointer(count),
      count ? 'a whole number in every summary' : 'no whole number in every summary',
    ),
    line(
      'metadata',
      metadata && pointer(metadata),
      metadata ? 'an object in every summary' : 'no object-valued member in every summary',
    ),
  ]);
  return `${lines.join('\n')}\n`;
}

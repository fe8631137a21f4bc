/**
 * What `answers-contract init` reads from a target's answers: the array of a list body, the
 * members every item has, the next-page member, and how the list pages (asked, not guessed).
 */
import { ContractClient, type ContractResponse } from './client.ts';
import { readPlace } from './target-api/place.ts';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const pointer = (...keys: string[]) =>
  keys.map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** The first array of objects in a body: the body itself, or one of its members (one level down). */
export function findItems(body: unknown): { at: string; items: Json[] } | undefined {
  if (Array.isArray(body)) return { at: '', items: body.filter(isObject) };
  if (!isObject(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.every(isObject))
      return { at: pointer(key), items: value as Json[] };
  }
  return undefined;
}

/** A member of every item matching `test`, named like `name` if several do. */
export function field(
  items: Json[],
  name: RegExp,
  test: (value: unknown) => boolean,
): string | undefined {
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

/** What the list probe answered, for comments. */
/**
 * Target data in a YAML comment of the draft: every line break and control character escaped
 * (`\n`, `\u0085`), so a token or a member name can never end the comment and start a key.
 */
export function inComment(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Target data as a YAML value of the draft: single-quoted when it is plain printable text without
 * a quote, else a JSON string (a YAML double-quoted scalar, every character escaped).
 */
export function yamlString(text: string): string {
  return /^[\x20-\x26\x28-\x7e]*$/.test(text) ? `'${text}'` : JSON.stringify(text);
}

export function listWhyOf(list: ContractResponse | undefined): string {
  if (list === undefined) return 'no answer';
  if (list.status !== 200) return `answered ${list.status}`;
  return `answered 200 with ${findItems(list.json)?.items.length ?? 0} item(s)`;
}

export async function probe(
  http: ContractClient,
  path: string,
): Promise<ContractResponse | undefined> {
  try {
    return await http.request('GET', path);
  } catch {
    return undefined;
  }
}

/** Query parameters a page size goes by, in the order they are tried. */
const SIZE_PARAMETERS = ['limit', 'per_page', 'page_size', 'pageSize', 'size', 'count'];

/** Members that give the number of pages, or of items, in a list body. */
const TOTAL_PAGES = /^(pages|total_?pages|num_?pages|page_?count|last_?page)$/i;
const TOTAL_ITEMS = /^(total|total_?count|count|total_?items|total_?results)$/i;

/** A whole-number member of a list body (or one level down) whose name matches. */
function findTotal(body: unknown, name: RegExp): string | undefined {
  if (!isObject(body)) return undefined;
  for (const [key, value] of Object.entries(body)) {
    if (name.test(key) && Number.isInteger(value)) return pointer(key);
    if (isObject(value))
      for (const [inner, innerValue] of Object.entries(value))
        if (name.test(inner) && Number.isInteger(innerValue)) return pointer(key, inner);
  }
  return undefined;
}

/** What the probes found out about paging, as draft lines. */
export interface PagingGuess {
  lines: string[];
  /** The next-page member, when the list pages by token or link (`header`: in a `Link` header). */
  next?: { at: string; value: string; header?: 'Link' } | undefined;
}

/**
 * How the list pages, found by asking for a page of one item: the page-size parameter that gives
 * one item, then which of the four ways brings the second item (a next link to follow, a token
 * in a query parameter, a page number, an offset), each tried and seen to work, not guessed
 * from names alone.
 */
export async function probePaging(
  http: ContractClient,
  path: string,
  first: Json[],
  idOf: (item: Json | undefined) => unknown,
): Promise<PagingGuess> {
  if (first.length < 2)
    return {
      lines: [
        `  # the list holds ${first.length} item(s): with two or more, init can ask for a page of one and see how the next is asked for`,
      ],
    };
  let size: { parameter: string; page: ContractResponse } | undefined;
  for (const parameter of SIZE_PARAMETERS) {
    const page = await probe(http, `${path}?${parameter}=1`);
    if (page?.status === 200 && findItems(page.json)?.items.length === 1) {
      size = { parameter, page };
      break;
    }
  }
  if (!size)
    return {
      lines: [
        `  # pageSize: ?   # could not find: none of ${SIZE_PARAMETERS.join(', ')} gave a page of one item`,
      ],
    };
  const sized = `  pageSize: '${size.parameter}'   # ?${size.parameter}=1 gave a page of one item`;
  const second = idOf(first[1]);
  const bringsSecond = async (query: string) => {
    const page = await probe(http, `${path}?${size.parameter}=1&${query}`);
    return page?.status === 200 && idOf(findItems(page.json)?.items[0]) === second;
  };
  // @note A next link in a `Link` header (RFC 8288) is followed as the walk would follow it,
  // resolved against the page's URL, and taken only if it brings the second item.
  const linked = readPlace(size.page, { header: 'Link' });
  if (typeof linked === 'string' && linked !== '') {
    const url = new URL(linked, `${http.baseUrl.replace(/\/$/, '')}${path}?${size.parameter}=1`);
    const page = http.isHome(url.href) ? await probe(http, url.href) : undefined;
    if (page?.status === 200 && idOf(findItems(page.json)?.items[0]) === second)
      return {
        next: { at: 'Link', value: linked, header: 'Link' },
        lines: [
          sized,
          `  follow: true   # the Link header's rel="next" ("${inComment(linked.slice(0, 60))}") brought the second item`,
        ],
      };
  }
  const next = findNext(size.page.json);
  if (next && next.value !== '' && /^(https?:\/\/|\/)/.test(next.value)) {
    return {
      next,
      lines: [
        sized,
        `  follow: true   # ${inComment(next.at)} holds a link ("${inComment(next.value.slice(0, 60))}")`,
      ],
    };
  }
  if (next && next.value !== '') {
    const member = next.at.split('/').pop() ?? '';
    const candidates = [
      ...new Set([
        member.replace(/^next_?/i, ''),
        'cursor',
        'page_token',
        'pageToken',
        'token',
        'after',
        'next',
        member,
      ]),
    ].filter(Boolean);
    for (const parameter of candidates)
      if (await bringsSecond(`${parameter}=${encodeURIComponent(next.value)}`))
        return {
          next,
          lines: [
            sized,
            `  pageToken: '${parameter}'   # ?${parameter}=<${inComment(next.at)}> brought the second item`,
          ],
        };
    return {
      next,
      lines: [
        sized,
        `  # pageToken: ?   # ${inComment(next.at)} holds a token, but none of ${candidates.join(', ')} took it`,
      ],
    };
  }
  // @note A page number (the second page of one item) or an offset (from item 1) that brings the
  // second item, with the total the body gives, if any: pages first, then items.
  const ways = [
    {
      key: 'page',
      names: ['page', 'p', 'page_number'],
      second: '2',
      totals: [TOTAL_PAGES, TOTAL_ITEMS],
    },
    { key: 'offset', names: ['offset', 'skip', 'start'], second: '1', totals: [TOTAL_ITEMS] },
  ];
  for (const way of ways)
    for (const parameter of way.names) {
      if (!(await bringsSecond(`${parameter}=${way.second}`))) continue;
      const total = way.totals
        .map((name) => ({ name, at: findTotal(size.page.json, name) }))
        .find((found) => found.at !== undefined);
      return {
        lines: [
          sized,
          `  ${way.key}: '${parameter}'   # ?${parameter}=${way.second} brought the second item`,
          total === undefined
            ? '  # no total in the body: the walk reads until an empty page'
            : total.name === TOTAL_PAGES
              ? `  totalPages: ${yamlString(total.at ?? '')}   # the number of pages`
              : `  totalItems: ${yamlString(total.at ?? '')}   # the number of items`,
        ],
      };
    }
  return {
    lines: [
      sized,
      '  # could not find how to ask for page 2: no next member, and neither page=2 nor offset=1 brought the second item',
    ],
  };
}

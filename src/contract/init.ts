import type { ContractCheck } from './check.ts';
import { CHECKS } from './checks/index.ts';
import { ContractClient } from './client.ts';
import {
  DEFAULT_DESCRIPTION,
  OPERATION_NAMES,
  type OperationName,
} from './target-api/description.ts';
import { instantOf } from './target-api/dates.ts';
import { STEP_KINDS } from './explore/steps/index.ts';
import {
  inComment,
  yamlString,
  field,
  findItems,
  isObject,
  listWhyOf,
  pointer,
  probe,
  probePaging,
} from './init-probes.ts';

/** The operations the spec states no path for. */
const UNSTATED = OPERATION_NAMES.filter(
  (name) => !['listCollections', 'getCollection'].includes(name),
);

/**
 * A commented line for each operation the spec states no path for, with our document's path
 * (under `/api/answers`, as the spec's get is) and the checks that need it or use it where
 * offered, read from the checks themselves, or else whether explore's steps send it.
 */
function unstatedOperations(): string[] {
  return UNSTATED.map((name) => {
    const { method, path } = DEFAULT_DESCRIPTION.operations[name]!;
    const ids = (pick: (check: ContractCheck) => OperationName[] | undefined) =>
      CHECKS.filter((check) => pick(check)?.includes(name)).map((check) => check.id);
    const needed = ids((check) => check.uses);
    const served = ids((check) => check.usesWhereOffered);
    const why = [
      needed.length > 0 ? `needed by ${needed.join(', ')}` : '',
      served.length > 0 ? `used where offered by ${served.join(', ')}` : '',
    ].filter(Boolean);
    const sent = STEP_KINDS.some((kind) => kind.needs.includes(name));
    return `  # ${name}: ${method} /api/answers${path}   # ${
      why.length > 0
        ? why.join('; ')
        : sent
          ? 'no check needs it; explore sends it where offered'
          : 'no check needs it, and no explore step sends it yet'
    }`;
  });
}

/**
 * Probes the two paths the spec states and writes a draft target description: what it guessed,
 * from what evidence, and what it could not find, as comments beside each key.
 */
export async function draftTarget(baseUrl: string, key: string): Promise<string> {
  const http = new ContractClient(baseUrl, key, false);
  const lines: string[] = [
    '# yaml-language-server: $schema=./node_modules/answers-mock-kit/contracts/target.schema.json',
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
  const name = field(items, /^(name|title|label|display_?name)$/i, (v) => typeof v === 'string');
  const paging =
    list?.status === 200
      ? await probePaging(http, '/v1/collections', items, (item) => (id ? item?.[id] : undefined))
      : { lines: [`  # could not probe paging: the list ${listWhyOf(list)}`] };
  const next = paging.next;
  const listWhy = listWhyOf(list);

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
      : `  ${key}: ${yamlString(value)}   # ${inComment(why)}`;
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
    '  # (the checks that need them then skip, naming what is missing). Our paths, as a start:',
    ...unstatedOperations(),
  ]);
  section('list', [
    line(
      'items',
      found?.at,
      found ? `the array in the list body (${items.length} item(s))` : listWhy,
    ),
    ...(next?.header
      ? [
          `  next: { header: ${next.header} }   # the next page, in the ${next.header} header of a page of one item`,
        ]
      : next
        ? [
            line(
              'next',
              next.at,
              `the next page, in a page of one item ("${next.value.slice(0, 40)}")`,
            ),
          ]
        : []),
  ]);
  section('paging', paging.lines);
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
    line(
      'name',
      name && pointer(name),
      name
        ? 'a string named like a name in every summary'
        : 'no name, title or label in every summary',
    ),
  ]);
  return `${lines.join('\n')}\n`;
}

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { instantOf } from '../../src/contract/target-api/dates.ts';
import { readFile } from 'node:fs/promises';
import { DEFAULT_DESCRIPTION, OPERATION_NAMES } from '../../src/contract/target-api/description.ts';
import {
  loadTargetFile,
  parseTargetDescription,
  TargetFileError,
} from '../../src/contract/target-api/load.ts';
import { isPointer, resolvePointer } from '../../src/contract/target-api/pointer.ts';

const SHIPPED = fileURLToPath(new URL('../../contracts/answers-openapi.yaml', import.meta.url));

describe('resolvePointer (RFC 6901)', () => {
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'm~n': 8, nested: { x: null } };
  it.each([
    { pointer: '', want: doc },
    { pointer: '/foo', want: ['bar', 'baz'] },
    { pointer: '/foo/0', want: 'bar' },
    { pointer: '/', want: 0 },
    { pointer: '/a~1b', want: 1 },
    { pointer: '/m~0n', want: 8 },
    { pointer: '/nested/x', want: null },
    { pointer: '/foo/2', want: undefined },
    { pointer: '/foo/01', want: undefined },
    { pointer: '/missing/deeper', want: undefined },
    { pointer: '/foo/length', want: undefined },
  ])('$pointer', ({ pointer, want }) => {
    expect(resolvePointer(doc, pointer)).toEqual(want);
  });

  it.each([
    { pointer: '', want: true },
    { pointer: '/a/b', want: true },
    { pointer: '/a~0b~1', want: true },
    { pointer: 'a', want: false },
    { pointer: '/a~2', want: false },
    { pointer: '/a~', want: false },
  ])('isPointer($pointer) is $want', ({ pointer, want }) => {
    expect(isPointer(pointer)).toBe(want);
  });
});

describe('instantOf', () => {
  it.each([
    { value: '2026-11-22T12:00:00.000Z', want: 1_795_348_800_000 },
    { value: '2026-11-22T12:00:00Z', want: 1_795_348_800_000 },
    { value: '2026-11-22T13:00:00+01:00', want: 1_795_348_800_000 },
    { value: 1_795_348_800, want: 1_795_348_800_000 },
    { value: 1_795_348_800_000, want: 1_795_348_800_000 },
    { value: '1795348800000', want: 1_795_348_800_000 },
    { value: 'yesterday', want: undefined },
    { value: '2026-11-22', want: undefined },
    { value: -1, want: undefined },
    { value: null, want: undefined },
  ])('$value', ({ value, want }) => {
    expect(instantOf(value)).toBe(want);
  });
});

describe('target descriptions', () => {
  it('ships the default as contracts/answers-openapi.yaml', async () => {
    const shipped = await loadTargetFile(SHIPPED);
    expect({ ...shipped, source: '' }).toEqual({ ...DEFAULT_DESCRIPTION, source: '' });
  });

  it('keeps only the operations a description lists, and the defaults for the rest', () => {
    const description = parseTargetDescription(
      'operations:\n  listCollections: GET /v1/collections\nstatuses:\n  gone: [410]\n',
      't.yaml',
    );
    expect(Object.keys(description.operations)).toEqual(['listCollections']);
    expect(description.statuses).toEqual({ gone: [410], notYours: [401, 403, 404] });
    expect(description.list).toEqual(DEFAULT_DESCRIPTION.list);
  });

  it('reads JSON as well as YAML', () => {
    const description = parseTargetDescription('{"list": {"items": "/collections"}}', 't.json');
    expect(description.list.items).toBe('/collections');
  });

  it.each([
    { text: 'operations: [', want: /t\.yaml: line 1, column \d+: not valid YAML or JSON/ },
    { text: '{"list": ', want: /not valid YAML or JSON/ },
    {
      text: 'operation:\n  listCollections: GET /x\n',
      want: /t\.yaml: \/operation: unknown key "operation"; expected one of .*operations/,
    },
    {
      text: 'operations:\n  listCollections: GET /a\n  listCollections: GET /b\n',
      want: /t\.yaml: line 3, column 3: not valid YAML or JSON: Map keys must be unique/,
    },
    {
      text: 'operations:\n  getCollection: FETCH /c/{collection_id}\n',
      want: /\/operations\/getCollection: expected "METHOD \/path-template"/,
    },
    {
      text: 'operations:\n  getCollection: GET /c/{id}\n',
      want: /\/operations\/getCollection: unknown placeholder \{id\}; allowed: \{collection_id\}/,
    },
    {
      text: 'operations:\n  getObject: GET /objects\n',
      want: /\/operations\/getObject: the path must carry \{object_id\}/,
    },
    { text: 'list:\n  items: data\n', want: /\/list\/items: expected a JSON Pointer/ },
    { text: 'list:\n  items: /a~2\n', want: /\/list\/items: expected a JSON Pointer/ },
    {
      text: 'bodies:\n  search: { q: "{question}" }\n',
      want: /\/bodies\/search\/q: unknown placeholder \{question\}; allowed: \{query\}/,
    },
    { text: 'statuses:\n  gone: [99]\n', want: /\/statuses\/gone\/0: must be >= 200/ },
    {
      text: 'paging:\n  follow: true\n  pageToken: t\n',
      want: /\/paging: one way to page, not follow: true and pageToken/,
    },
    { text: 'paging:\n  page: p\n  offset: o\n', want: /one way to page, not page and offset/ },
    { text: 'paging:\n  totalPages: /pages\n', want: /\/paging\/totalPages: only with "page"/ },
    { text: 'paging:\n  crossOrigin: always\n', want: /\/paging\/crossOrigin/ },
    // Issue 48: an update in parts, each part a request with its body.
    {
      text: `operations:\n  getCollection:\n    - { request: 'GET /c/{collection_id}', body: '{name}' }\n    - { request: 'GET /d/{collection_id}', body: '{metadata}' }\n`,
      want: /\/operations\/getCollection: expected "METHOD \/path-template", e.g. "GET \/v1\/collections"$/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c/{collection_id}', body: { title: '{name}', meta: '{metadata}' } }\n    - { request: 'PUT /c/{collection_id}/meta', body: '{metadata}' }\n`,
      want: /\/operations\/updateCollection\/1\/body: \{metadata\} is already carried by part 0/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c/{collection_id}', body: { title: '{name}' } }\n    - { request: 'PUT /c/{collection_id}/meta', body: { fixed: 1 } }\n`,
      want: /\/operations\/updateCollection\/1\/body: a part changes what its body carries: expected one of \{name\}, \{metadata\}/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c/{collection_id}', body: { title: '{title}' } }\n    - { request: 'PUT /c/{collection_id}/meta', body: '{metadata}' }\n`,
      want: /\/operations\/updateCollection\/0\/body\/title: unknown placeholder \{title\}/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c', body: { title: '{name}' } }\n    - { request: 'PUT /c/{collection_id}/meta', body: '{metadata}' }\n`,
      want: /\/operations\/updateCollection: the path must carry \{collection_id\}/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c/{collection_id}', body: { title: '{name}' } }\n    - { request: 'PUT /c/{collection_id}/meta', body: '{metadata}' }\nbodies:\n  updateCollection: { title: '{name}' }\n`,
      want: /\/bodies\/updateCollection: updateCollection is given in parts, each with its body: no bodies\.updateCollection beside them/,
    },
    {
      text: `operations:\n  updateCollection:\n    - { request: 'PATCH /c/{collection_id}' }\n    - { request: 'PUT /c/{collection_id}/meta', body: '{metadata}' }\n`,
      want: /\/operations\/updateCollection/,
    },
    // An alias inside its own anchor: a value that contains itself, which every walk followed
    // until the stack overflowed.
    {
      text: 'bodies:\n  createCollection: &a\n    name: "{name}"\n    more: *a\n',
      want: /\(the whole file\): not a usable description: nests deeper than 64 levels \(an alias inside its own anchor\?\)/,
    },
    {
      text: 'bodies:\n  search: &s ["{query}", *s]\n',
      want: /nests deeper than 64 levels/,
    },
  ])('refuses $text', ({ text, want }) => {
    expect(() => parseTargetDescription(text, 't.yaml')).toThrow(TargetFileError);
    expect(() => parseTargetDescription(text, 't.yaml')).toThrow(want);
  });

  it('names a file it cannot read', async () => {
    await expect(loadTargetFile('/nonexistent/target.yaml')).rejects.toThrow(
      '/nonexistent/target.yaml: (the whole file): cannot be read (ENOENT)',
    );
  });
});

describe('the operation vocabulary, from openapi.yaml', () => {
  it('names every operation of our document, searchObjects as search, with its path as the default', async () => {
    const { operationIds, operationTemplates } = await import('../../src/generated/operations.ts');
    expect(OPERATION_NAMES).toEqual(
      operationIds.map((id) => (id === 'searchObjects' ? 'search' : id)),
    );
    for (const id of operationIds)
      expect(DEFAULT_DESCRIPTION.operations[id === 'searchObjects' ? 'search' : id]).toEqual(
        operationTemplates[id],
      );
  });

  it('sees an operation added to a copy of openapi.yaml', async () => {
    const { generateOperationsModule, OPENAPI_URL } =
      await import('../../scripts/generate-types.ts');
    const text = await readFile(OPENAPI_URL, 'utf8');
    const added = text.replace(
      /^paths:\n/m,
      [
        'paths:',
        '  /collections/{collection_id}/archive:',
        '    post:',
        '      operationId: archiveCollection',
        '      responses:',
        "        '204':",
        '          description: archived',
        '',
      ].join('\n'),
    );
    const module = await generateOperationsModule(added);
    expect(module).toMatch(/export const operationIds = \[\n {2}"archiveCollection",/);
    expect(module).toContain(
      '"archiveCollection": {\n    "method": "POST",\n    "path": "/collections/{collection_id}/archive"',
    );
  });

  it('takes searchObjects, the operationId, for search in a target file, and refuses both', () => {
    const by = parseTargetDescription(
      'operations:\n  searchObjects: GET /find?q={query}\n',
      't.yaml',
    );
    expect(by.operations.search).toEqual({ method: 'GET', path: '/find?q={query}' });
    expect(() =>
      parseTargetDescription(
        'operations:\n  search: POST /s\n  searchObjects: POST /t\n',
        't.yaml',
      ),
    ).toThrow(/one of search and searchObjects, not both/);
  });

  it('has the target schema list every operation name, and the operationId of each alias', async () => {
    const schema = JSON.parse(
      await readFile(new URL('../../contracts/target.schema.json', import.meta.url), 'utf8'),
    ) as { properties: { operations: { properties: Record<string, unknown> } } };
    expect(Object.keys(schema.properties.operations.properties).sort()).toEqual(
      [...OPERATION_NAMES, 'searchObjects'].sort(),
    );
  });
});

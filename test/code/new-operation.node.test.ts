/**
 * One generated vocabulary (issue 36, item 1): an operation added to openapi.yaml reaches the
 * contract side with no other hand edit. A copy of the contract side (`src/contract/`,
 * `src/openapi/`, `src/generated/`, `contracts/`) gets an operation openapi.yaml does not have,
 * `countObjects` (`GET /collections/{collection_id}/count`), in its openapi.yaml; the generator
 * writes the copy's generated files; the copy's own modules, unedited, then name it: the
 * operation names, the default description, the target schema, what `init` drafts, and the target
 * that the suite and explore send through.
 */
import { cp, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateDefaultDescriptionFile,
  generateOperationsModule,
  generateTargetSchema,
} from '../../scripts/generate-types.ts';
import type * as Description from '../../src/contract/target-api/description.ts';
import type * as Load from '../../src/contract/target-api/load.ts';
import type * as Init from '../../src/contract/init.ts';
import type * as TargetModule from '../../src/contract/target-api/target.ts';
import type { ContractClient } from '../../src/contract/client.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What is copied: the contract side and what it imports, with the data it reads. */
const FOLDERS = ['contracts', 'src/contract', 'src/openapi', 'src/generated'];
const FILES = ['openapi.yaml', 'package.json'];

/** The new operation, as a contributor adds it to openapi.yaml (before `/search`). */
const COUNT_OBJECTS = `  /collections/{collection_id}/count:
    parameters:
      - $ref: '#/components/parameters/CollectionIdPath'
    get:
      operationId: countObjects
      summary: Count the objects of a collection
      x-permission: read
      responses:
        '200':
          description: The number of objects of the collection.
`;

let copy: string;
let description: typeof Description;
let load: typeof Load;
let init: typeof Init;
let target: typeof TargetModule;
let operationsModule: string;
let schema: { properties: { operations: { properties: Record<string, { description: string }> } } };
let server: Server;

/** Every file under `dir`, from `dir`. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'answers-new-operation-'));
  for (const path of [...FILES, ...FOLDERS])
    await cp(join(ROOT, path), join(copy, path), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const at = (path: string) => join(copy, path);

  // The hand edit: openapi.yaml and nothing else.
  const document = (await readFile(at('openapi.yaml'), 'utf8')).replace(
    /^ {2}\/search:\n/m,
    (search) => COUNT_OBJECTS + search,
  );
  await writeFile(at('openapi.yaml'), document);

  // `npm run generate`, on the copy: the vocabulary first, then what reads it.
  operationsModule = await generateOperationsModule(document);
  await writeFile(at('src/generated/operations.ts'), operationsModule);
  description = (await import(at('src/contract/target-api/description.ts'))) as typeof Description;
  const sources = {
    document,
    vocabulary: description,
    schema: await readFile(at('contracts/target.schema.json'), 'utf8'),
  };
  const schemaText = await generateTargetSchema(sources);
  schema = JSON.parse(schemaText) as typeof schema;
  await writeFile(at('contracts/target.schema.json'), schemaText);
  await writeFile(
    at('contracts/answers-openapi.yaml'),
    await generateDefaultDescriptionFile(sources),
  );

  // The copy's own modules, which read what was generated.
  load = (await import(at('src/contract/target-api/load.ts'))) as typeof Load;
  init = (await import(at('src/contract/init.ts'))) as typeof Init;
  target = (await import(at('src/contract/target-api/target.ts'))) as typeof TargetModule;

  // A target that answers 404 to everything: `init` drafts what it cannot find from our paths.
  server = createServer((_, response) => response.writeHead(404).end());
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
}, 20_000);

afterAll(async () => {
  await new Promise((closed) => server?.close(closed));
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('an operation added to openapi.yaml, and nothing else edited by hand', () => {
  it('changes only openapi.yaml and the generated files of the copy', async () => {
    const changed: string[] = [];
    for (const path of FOLDERS)
      for (const file of await filesUnder(join(copy, path))) {
        const original = await readFile(join(ROOT, path, file), 'utf8').catch(() => null);
        if (original !== (await readFile(join(copy, path, file), 'utf8')))
          changed.push(`${path}/${file}`);
      }
    expect(changed.sort()).toEqual([
      'contracts/answers-openapi.yaml',
      'contracts/target.schema.json',
      'src/generated/operations.ts',
    ]);
  });

  it('is an operation name, with its path and placeholders from the document', () => {
    expect(operationsModule).toContain('"countObjects"');
    expect(description.OPERATION_NAMES).toContain('countObjects');
    expect(description.OPERATION_IDS).toMatchObject({ countObjects: 'countObjects' });
    expect(description.PATH_PARAMETERS).toMatchObject({
      countObjects: { required: ['collection_id'], allowed: ['collection_id'] },
    });
    expect(description.BODY_PLACEHOLDERS).not.toHaveProperty('countObjects');
  });

  it('is in the default description, and in contracts/answers-openapi.yaml', async () => {
    const expected = { method: 'GET', path: '/collections/{collection_id}/count' };
    expect(description.DEFAULT_DESCRIPTION.operations).toMatchObject({ countObjects: expected });
    const file = join(copy, 'contracts/answers-openapi.yaml');
    expect(await readFile(file, 'utf8')).toContain(
      'countObjects: GET /collections/{collection_id}/count',
    );
    const shipped = await load.loadTargetFile(file);
    expect({ ...shipped, source: '' }).toEqual({ ...description.DEFAULT_DESCRIPTION, source: '' });
  });

  it('is in the target schema, which a target file naming it passes', () => {
    expect(schema.properties.operations.properties.countObjects?.description).toBe(
      'Count the objects of a collection: GET /collections/{collection_id}/count in our openapi.yaml. The path must carry {collection_id}.',
    );
    const named = load.parseTargetDescription(
      'operations:\n  countObjects: GET /c/{collection_id}/n\n',
      't.yaml',
    );
    expect(named.operations).toEqual({
      countObjects: { method: 'GET', path: '/c/{collection_id}/n' },
    });
    expect(() =>
      load.parseTargetDescription('operations:\n  countObjects: GET /count\n', 't.yaml'),
    ).toThrow('/operations/countObjects: the path must carry {collection_id}');
  });

  it('is drafted by answers-contract init, saying that nothing sends it yet', async () => {
    const { port } = server.address() as AddressInfo;
    const draft = await init.draftTarget(`http://127.0.0.1:${port}`, 'k');
    expect(draft).toContain(
      '  # countObjects: GET /api/answers/collections/{collection_id}/count   # no check needs it, and no explore step sends it yet\n',
    );
  });

  it('is offered by the target the suite and explore send through, validated as itself', () => {
    const offered = new target.Target(description.DEFAULT_DESCRIPTION, {} as ContractClient, false);
    expect(offered.offers('countObjects' as Description.OperationName)).toBe(true);
    expect(
      offered.route('countObjects' as Description.OperationName, { collection_id: 'col_1' }),
    ).toEqual({ method: 'GET', path: '/collections/col_1/count' });
    expect(target.PROFILE_OPERATION).toMatchObject({ countObjects: 'countObjects' });
  });
});

/**
 * Adding an operation is the generated vocabulary plus compile errors that point at every place
 * that must handle it (issue 47): a copy of what `npm run generate` and the type-check read gets
 * one more operation in its openapi.yaml, `archiveCollection`; `npm run generate` runs in the copy,
 * then `tsc` on the copy's src/, which must fail at each place of `MUST_HANDLE` and nowhere else.
 *
 * A place that handles every operation is a table typed over all of them (`{ [O in
 * OperationName]: … }`, `Record<OperationId, …>`): a new operation is a missing property there.
 * Were one of them loosened (a `Partial<…>`, a lookup with a fallback, a `switch` with a
 * `default:`), a new operation would pass it silently, and its file would drop out of the errors
 * here. Each error must name `archiveCollection` and fall in a file of MUST_HANDLE, so none can be
 * one the copy had before the edit: that the unchanged sources type-check clean is `npm run
 * typecheck`'s to prove, which the same `npm test` and .ci/run run.
 *
 * test/code/new-operation.node.test.ts is the other half: what the generated vocabulary alone
 * already gives a new operation (the description, the schema, `init`), with no hand edit.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Each place that must handle a new operation: the file tsc must fail in, the table it must fail
 * at (named on the line of the error), and why that table cannot do without one.
 */
const MUST_HANDLE: ReadonlyArray<{ file: string; table: string; why: string }> = [
  {
    file: 'src/core/operations/index.ts',
    table: 'HANDLERS',
    why: 'the mock answers every operation of openapi.yaml: one without a handler is a 500',
  },
  {
    file: 'src/openapi/response-validation.ts',
    table: 'BODY_DECISION',
    why: "a success's body is judged by a decision of docs/spec-gaps.md, chosen by operation",
  },
  {
    file: 'src/contract/judges/clause-of.ts',
    table: 'OPERATION_CLAUSE',
    why: "the clause an operation's answer puts to the test: a divergence on it needs a name",
  },
  {
    file: 'src/contract/expectations/effects.ts',
    table: 'AFTER',
    why: 'what a correct target must show after it (the expectations model), a read included',
  },
  {
    file: 'src/contract/replay/effects.ts',
    table: 'EFFECTS',
    why: 'what a replayed exchange of it maps and shows: never skipped as unknown',
  },
  {
    file: 'src/contract/checks/auth-requests.ts',
    table: 'AIMED',
    why: 'the auth matrix sends it with every credential the spec states: never left unasked',
  },
  {
    file: 'src/contract/explore/refused-read-back.ts',
    table: 'READ_BACKS',
    why: 'how a write of it refused at a limit is read back: never called a limit unread',
  },
];

/**
 * The tables keyed by operation that may leave one out, and why: each holds what only some
 * operations have. Any other such table, or a `switch` over an operation, would take a new
 * operation silently; the last test below finds them.
 */
const MAY_LEAVE_OUT: ReadonlyArray<{ file: string; why: string }> = [
  {
    file: 'src/contract/target-api/description.ts',
    why: 'a target description offers the operations the target has',
  },
  {
    file: 'src/contract/target-api/load.ts',
    why: 'the names a description file may use: only some operations have an alias',
  },
];

/** A table keyed by operation that may lack one, or a `switch` over an operation. */
const LOOSE = [
  /Partial<\s*Record<\s*(OperationName|OperationId|keyof operations)\b/,
  /\[\s*\w+\s+in\s+(OperationName|OperationId|keyof operations)\s*\]\s*\?:/,
  /\bswitch\s*\([^)]*\boperation(Id|Name)?\b/,
];

/** What generation and the type-check of src/ read, from the repository root. */
const COPIED = [
  'openapi.yaml',
  'package.json',
  'tsconfig.json',
  '.prettierrc.json',
  'scripts',
  'src',
  'contracts',
  'fixtures',
  'docs/spec-gaps.md',
  // @note `npm run generate` writes its table of the description's keys into the README too.
  'README.md',
];

/** The type-check of the copy: the repository's options, src/ only (test/ would triple the time). */
const SRC_TSCONFIG = { extends: './tsconfig.json', include: ['src'] };

/** The new operation, as a contributor writes it into openapi.yaml (before `/search`). */
const ARCHIVE_COLLECTION = `  /collections/{collection_id}/archive:
    parameters:
      - $ref: '#/components/parameters/CollectionIdPath'
    post:
      operationId: archiveCollection
      summary: Archive a collection
      description: |
        Archives a collection: it stays readable and takes no new objects.

        Requires the \`write\` permission.
      tags: [Collections]
      x-permission: write
      x-spec-status: assumed
      x-spec-gap: GAP-WRITE-OPS
      security:
        - bearerAuth: []
        - apiKeyHeader: []
      responses:
        '200':
          description: The archived collection.
          x-spec-status: assumed
          x-spec-gap: GAP-WRITE-OPS
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Collection'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '404':
          $ref: '#/components/responses/NotFound'
        '429':
          $ref: '#/components/responses/TooManyRequests'
        '500':
          $ref: '#/components/responses/InternalError'
`;

/** Each of generation and the type-check takes about 8 s on 2 shared cores. */
const COMMAND_TIMEOUT = 120_000;

const copies: string[] = [];

afterAll(async () => {
  for (const copy of copies) await rm(copy, { recursive: true, force: true });
});

/** A fresh copy of what generation and the type-check read, with the repository's node_modules. */
async function copyOfRepository(): Promise<string> {
  const copy = await scratchDir('answers-new-operation-tsc-');
  copies.push(copy);
  for (const path of COPIED) {
    await mkdir(join(copy, path, '..'), { recursive: true });
    await cp(join(ROOT, path), join(copy, path), { recursive: true });
  }
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  await writeFile(join(copy, 'tsconfig.src.json'), JSON.stringify(SRC_TSCONFIG));
  return copy;
}

/** Runs a command in `cwd`; its exit code and what it printed. */
function run(
  cwd: string,
  command: string,
  args: string[],
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd, timeout: COMMAND_TIMEOUT, maxBuffer: 16 * 1024 * 1024, env: process.env },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, output: `${stdout}${stderr}${error && code === -1 ? error.message : ''}` });
      },
    );
  });
}

/** One error of tsc (`--pretty false`): where, and the first line of what. */
interface CompileError {
  file: string;
  line: number;
  message: string;
}

/**
 * `npm run generate` in the copy, as a contributor runs it after editing openapi.yaml, then tsc
 * on its src/: the errors, or none.
 */
async function generateAndTypeCheck(copy: string): Promise<CompileError[]> {
  const generated = await run(copy, 'npm', ['run', 'generate', '--silent']);
  expect(generated.code, generated.output).toBe(0);
  const tsc = join(copy, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = await run(copy, process.execPath, [
    tsc,
    '--noEmit',
    '--pretty',
    'false',
    '-p',
    'tsconfig.src.json',
  ]);
  const errors = [...checked.output.matchAll(/^(.+?)\((\d+),\d+\): error TS\d+: (.*)$/gm)].map(
    ([, file, line, message]) => ({ file: file!, line: Number(line), message: message! }),
  );
  // @note A failure that is no type error (tsc not found, a bad tsconfig) is no verdict here.
  expect(checked.code === 0 || errors.length > 0, checked.output).toBe(true);
  return errors;
}

describe('an operation added to openapi.yaml', () => {
  it(
    'fails the type-check at each place that must handle every operation, and nowhere else',
    async () => {
      const copy = await copyOfRepository();
      const document = await readFile(join(copy, 'openapi.yaml'), 'utf8');
      const edited = document.replace(/^ {2}\/search:\n/m, (search) => ARCHIVE_COLLECTION + search);
      expect(edited).not.toBe(document);
      await writeFile(join(copy, 'openapi.yaml'), edited);

      const errors = await generateAndTypeCheck(copy);

      expect(await readFile(join(copy, 'src/generated/operations.ts'), 'utf8')).toContain(
        '"archiveCollection"',
      );
      const failing = new Set(errors.map((error) => error.file));
      const silent = MUST_HANDLE.filter((place) => !failing.has(place.file));
      expect(
        silent.map((place) => `${place.file} (${place.table}): ${place.why}`),
        'these places took the new operation without a compile error',
      ).toEqual([]);
      const unlisted = [...failing].filter((file) => !MUST_HANDLE.some((p) => p.file === file));
      expect(
        unlisted,
        `tsc failed where MUST_HANDLE names no place (list it, with why): ${JSON.stringify(errors, null, 2)}`,
      ).toEqual([]);
      for (const error of errors)
        expect(error.message, `${error.file}:${error.line}`).toContain("'archiveCollection'");
      for (const { file, table } of MUST_HANDLE) {
        const lines = (await readFile(join(copy, file), 'utf8')).split('\n');
        const at = errors
          .filter((error) => error.file === file)
          .map((error) => lines[error.line - 1] ?? '');
        expect(
          at.some((line) => new RegExp(`\\b${table}\\b`).test(line)),
          `${file}: ${at}`,
        ).toBe(true);
      }
    },
    2 * COMMAND_TIMEOUT + 30_000,
  );

  it('finds no other table or switch over operations that could take one silently', async () => {
    const src = join(ROOT, 'src');
    const files = (await readdir(src, { recursive: true }))
      .filter((file) => file.endsWith('.ts') && !file.startsWith('generated/'))
      .sort();
    const loose = new Set<string>();
    for (const file of files) {
      const text = await readFile(join(src, file), 'utf8');
      if (LOOSE.some((pattern) => pattern.test(text))) loose.add(relative(ROOT, join(src, file)));
    }
    expect([...loose]).toEqual(MAY_LEAVE_OUT.map((place) => place.file).sort());
  });
});

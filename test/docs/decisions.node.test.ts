/**
 * The decision records of docs/decisions/ cannot drift from the code (issue 36, item 3): each
 * says whether it still stands, each path it names exists, and each that stands has a fact or two
 * of the code below that fails here when the code stops doing what the record says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostRefusal, hostRule } from '../../src/core/allowed-hosts.ts';
import { ROOT } from './doc-blocks.ts';
import { backtickedPaths, filesUnder, repositoryFiles } from './folder-readme-check.ts';

const FOLDER = 'docs/decisions';
const RECORDS = readdirSync(join(ROOT, FOLDER))
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .sort();
const FILES = repositoryFiles(ROOT);
const NAMES = new Set([...FILES].map((file) => file.slice(file.lastIndexOf('/') + 1)));

/** `stands`, `superseded by` a record (named in backticks), or `withdrawn`; near the top. */
const STATUS = /^Status: (stands|superseded by `docs\/decisions\/[\w-]+\.md`|withdrawn)\.?$/m;

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

function occurs(path: string, text: string): boolean {
  return read(path).includes(text);
}

/** The files of `folder` whose text has `text`. */
function filesWith(folder: string, text: string): string[] {
  return filesUnder(ROOT, folder).filter((file) => file.endsWith('.ts') && occurs(file, text));
}

interface Fact {
  /** What the record says, as the code must still do it. */
  says: string;
  holds: () => boolean;
}

interface Facts {
  facts: Fact[];
  /** Files the record names as deleted: none of them may exist again. */
  gone?: string[];
}

/** Per record that stands, what of the code must hold for it to stand. */
const FACTS: Record<string, Facts> = {
  'describe-any-server.md': {
    facts: [
      {
        says: 'a Link header is read in one place, by http-link-header',
        holds: () =>
          JSON.stringify(filesWith('src', "from 'http-link-header'")) ===
          JSON.stringify(['src/contract/target-api/place.ts']),
      },
      {
        says: "one waiting loop: explore's World waits through Settle, with no timer of its own",
        holds: () =>
          occurs('src/contract/explore/world.ts', 'this.settle.until(') &&
          !occurs('src/contract/explore/world.ts', 'setTimeout('),
      },
      {
        says: 'a clean refusal past what the target took is learned as a limit, in one class',
        holds: () =>
          occurs('src/contract/explore/limits.ts', 'export class LimitsLearned') &&
          occurs('src/contract/explore/world.ts', 'this.limits.refused('),
      },
      {
        says: 'a refused write is read back before it is a limit, and its clauses live in the judge',
        holds: () =>
          occurs('src/contract/explore/world.ts', 'await refusalReadBack(') &&
          occurs('src/contract/judges/values.ts', 'export function refusedStoredNothing(') &&
          !/'(COLL|OBJ)-/.test(read('src/contract/explore/refused-read-back.ts')),
      },
      {
        says: 'an update in parts is sent by Target.send, and which operations take parts is one rule',
        holds: () =>
          occurs('src/contract/target-api/target.ts', 'const parts = template?.parts;') &&
          occurs('src/contract/target-api/description.ts', 'export const takesParts') &&
          occurs('scripts/generate-types.ts', 'takesParts(name)'),
      },
      {
        says: "the README's table of the description's keys is generated from the schema",
        holds: () =>
          occurs(
            'README.md',
            '<!-- target-keys: generated from contracts/target.schema.json -->',
          ) && occurs('scripts/generate-types.ts', 'export async function generateReadmeKeys('),
      },
    ],
  },
  'one-voice.md': {
    facts: [
      {
        says: 'no check builds a failure of its own: each hands its evidence to the judges',
        holds: () =>
          filesWith('src/contract/checks', 'ensure(').length === 0 &&
          filesWith('src/contract/checks', 'new CheckFailure(').length === 0,
      },
      {
        says: 'the registry is a table over every clause id',
        holds: () =>
          occurs(
            'src/contract/judges/index.ts',
            'export const JUDGING: { readonly [C in ClauseId]: Judging }',
          ),
      },
      {
        says: 'the suite, explore and replay each begin and end their run through runner/run.ts',
        holds: () =>
          [
            'src/contract/runner.ts',
            'src/contract/explore/explore.ts',
            'src/contract/replay/replay.ts',
          ].every((file) => occurs(file, 'new Run(')) &&
          filesWith('src/contract', 'startHeartbeat(this.id)').length === 1,
      },
      {
        says: "explore ends fast-check's search through its plugin interface, not a precondition",
        holds: () =>
          occurs('src/contract/explore/explore.ts', 'decorateRun') &&
          !occurs('src/contract/explore/explore.ts', 'fc.pre('),
      },
    ],
    gone: ['not-testable.ts', 'explorer.ts'],
  },
  'fast-check-bundled.md': {
    facts: [
      {
        says: 'fast-check is a devDependency, neither a dependency nor a peer',
        holds: () => {
          const pkg = JSON.parse(read('package.json')) as Record<string, Record<string, string>>;
          return (
            'fast-check' in pkg.devDependencies! &&
            !('fast-check' in pkg.dependencies!) &&
            !('fast-check' in pkg.peerDependencies!)
          );
        },
      },
      {
        says: 'one module of src/ imports fast-check, and the build bundles that module',
        holds: () =>
          filesWith('src', "from 'fast-check'").join() === 'src/contract/explore/fast-check.ts' &&
          occurs('scripts/build.ts', "entry: root('src/contract/explore/fast-check.ts')"),
      },
    ],
  },
  'one-way-to-answer.md': {
    facts: [
      {
        says: 'an operation returns a MockResponse, not a promise',
        holds: () =>
          occurs(
            'src/core/operations/handler.ts',
            'export type Handler = (context: OperationContext) => MockResponse;',
          ),
      },
      {
        says: 'the per-record JSON cache of get-collection is back (a WeakMap by record)',
        holds: () =>
          occurs('src/core/operations/get-collection.ts', 'const answered = new WeakMap<'),
      },
      {
        says: "a mock's one entry is handle, built by entry where the state is in scope",
        holds: () =>
          occurs('src/core/create-mock.ts', 'handle: entry(api, {') &&
          filesWith('src', 'handleDetailed').length === 0,
      },
    ],
    gone: ['answer-now.ts', 'mock-internals.ts'],
  },
  'plain-store.md': {
    facts: [
      {
        says: 'no file of the store imports @msw/data',
        holds: () => filesWith('src/core/store', "from '@msw/data'").length === 0,
      },
      {
        says: "mock.db runs its queries with @msw/data's public Query",
        holds: () => occurs('src/core/mock-db.ts', "import { Query } from '@msw/data';"),
      },
    ],
    gone: ['record-marks.ts', 'shelf.ts', 'answer-now.ts'],
  },
  'wildcard-host-opens-the-api-only.md': {
    facts: [
      {
        says: 'a name let in by * alone reaches the API, and the control API only with a token',
        holds: () => {
          const rule = hostRule(['*']);
          const refusal = (isControl: boolean, controlToken: boolean) =>
            hostRefusal(rule, 'attacker.example', {
              isControl: () => isControl,
              controlToken,
              allow: (name) => name,
            })?.status;
          return (
            refusal(false, false) === undefined &&
            refusal(true, false) === 403 &&
            refusal(true, true) === undefined &&
            hostRefusal(hostRule([]), 'attacker.example', {
              isControl: () => false,
              controlToken: false,
              allow: (name) => name,
            })?.status === 403
          );
        },
      },
      {
        says: "answers-mock --allowed-hosts '*' prints a warning",
        holds: () =>
          occurs('src/node/cli.ts', "options.allowedHosts?.includes('*')") &&
          occurs('src/node/cli.ts', 'answers-mock: warning: --allowed-hosts *'),
      },
    ],
  },
};

describe('the decision records', () => {
  it('are there', () => {
    expect(RECORDS.length).toBeGreaterThanOrEqual(4);
  });

  it.each(RECORDS)('%s says near its top whether it stands', (record) => {
    const top = read(`${FOLDER}/${record}`).split('\n').slice(0, 8).join('\n');
    expect(top).toMatch(STATUS);
  });

  it.each(RECORDS)('%s names the code it is about, and every path it names exists', (record) => {
    const gone = FACTS[record]?.gone ?? [];
    const paths = backtickedPaths(read(`${FOLDER}/${record}`));
    const missing = paths.filter((path) => {
      if (path.endsWith('/')) return ![...FILES].some((file) => file.startsWith(path));
      if (path.includes('/')) return !FILES.has(path);
      return !NAMES.has(path) && !gone.includes(path);
    });
    expect(missing).toEqual([]);
    expect(paths.filter((path) => /^(src|scripts)\/.+\.ts$/.test(path))).not.toEqual([]);
  });
});

describe('what the records that stand say of the code', () => {
  const standing = RECORDS.filter((record) => /^Status: stands/m.test(read(`${FOLDER}/${record}`)));

  it('has facts for every record that stands, and for no other', () => {
    expect(Object.keys(FACTS).sort()).toEqual(standing);
  });

  const facts = Object.entries(FACTS).flatMap(([record, { facts }]) =>
    facts.map((fact) => ({ record, ...fact })),
  );
  it.each(facts)('$record: $says', ({ holds }) => {
    expect(holds()).toBe(true);
  });

  const gone = Object.entries(FACTS).flatMap(([record, { gone = [] }]) =>
    gone.map((name) => ({ record, name })),
  );
  it.each(gone)('$record: $name is deleted, and stays so', ({ name }) => {
    expect(NAMES.has(name)).toBe(false);
  });
});

/**
 * Every README under src/ holds to its folder: it names each file and subfolder directly in it,
 * and what it names exists (issue 36, item 3). A file added, moved or renamed without its README
 * fails here, and the table below proves the check reports both kinds of drift.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './doc-blocks.ts';
import { checkFolderReadme, repositoryFiles, type ReadmeProblems } from './folder-readme-check.ts';

const FILES = repositoryFiles(ROOT);
const READMES = [...FILES].filter((file) => /^src\/(.+\/)?README\.md$/.test(file)).sort();

describe('the check', () => {
  const tree = new Set([
    'openapi.yaml',
    'src/core/README.md',
    'src/core/serve.ts',
    'src/core/router.ts',
    'src/core/store/store.ts',
    'src/core/search/vocabulary.ts',
    'docs/performance.md',
  ]);
  const cases: { name: string; text: string; expected: ReadmeProblems }[] = [
    {
      name: 'a README that names everything, from its folder and from the root',
      text: '`serve.ts` and `router.ts` answer (`openapi.yaml`, `docs/performance.md`); `store/`, `search/...`; `setupAnswersServer` is code.',
      expected: { unnamed: [], missing: [] },
    },
    {
      name: 'a file it does not name, and a file it names that is not there',
      text: '`serve.ts` and `handle.ts`; `store/store.ts`, `search/`.',
      expected: { unnamed: ['router.ts'], missing: ['handle.ts'] },
    },
    {
      name: 'a subfolder it does not name, and a path from the root that is not there',
      text: '`serve.ts`, `router.ts`, `store/`; `src/core/gone.ts`, `docs/gone.md`.',
      expected: { unnamed: ['search/'], missing: ['src/core/gone.ts', 'docs/gone.md'] },
    },
    {
      name: 'a name inside a fenced block is not a name',
      text: '`serve.ts`, `store/`, `search/`\n\n```\n`router.ts`\n```\n',
      expected: { unnamed: ['router.ts'], missing: [] },
    },
  ];
  it.each(cases)('$name', ({ text, expected }) => {
    expect(checkFolderReadme('src/core/README.md', text, tree)).toEqual(expected);
  });
});

describe('the READMEs under src/', () => {
  it('finds them', () => {
    expect(READMES.length).toBeGreaterThan(10);
    expect(READMES).toContain('src/core/README.md');
  });

  it.each(READMES)('%s names what is in its folder, and only what is there', (readme) => {
    const text = readFileSync(join(ROOT, readme), 'utf8');
    expect(checkFolderReadme(readme, text, FILES)).toEqual({ unnamed: [], missing: [] });
  });
});

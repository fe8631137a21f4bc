/**
 * `answers-mock-kit/contract` stays small: at most 25 names, none of the classes the suite runs
 * on, and the table of docs/package.md says which. Counted from the entry's source, type exports
 * included (what a runtime import shows leaves the types out), so that a name cannot be added
 * without this test and the documents saying so.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const ENTRY = 'src/contract/index.ts';

/** Every name a module's source exports, by its export statements and declarations. */
function exportedNames(source: string): string[] {
  const file = ts.createSourceFile('index.ts', source, ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      // `export * from`: names that no one listed here, so that no count would hold.
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) names.push('*');
      else names.push(...statement.exportClause.elements.map((element) => element.name.text));
    } else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      if (ts.isVariableStatement(statement))
        names.push(...statement.declarationList.declarations.map((d) => d.name.getText(file)));
      else if ('name' in statement && statement.name)
        names.push((statement.name as ts.Identifier).text);
    }
  }
  return names;
}

describe('the exports of answers-mock-kit/contract', () => {
  const names = exportedNames(read(ENTRY));

  it('counts names, types and values alike, and refuses `export *`', () => {
    expect(
      exportedNames(
        "export { a, type B } from './x.ts';\nexport type { C } from './y.ts';\nexport const d = 1, e = 2;\nexport function f() {}\nexport * from './z.ts';",
      ),
    ).toEqual(['a', 'B', 'C', 'd', 'e', 'f', '*']);
  });

  it('are at most 25, each once, none by `export *`', () => {
    expect(names).not.toContain('*');
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(25);
  });

  it('leave the classes the suite runs on, and the checks machinery, internal', () => {
    for (const internal of [
      'Target',
      'RunData',
      'ContractClient',
      'defineCheck',
      'ensure',
      'CheckFailure',
    ])
      expect(names, internal).not.toContain(internal);
  });

  it('hold the verbs, their reports and their errors', () => {
    expect(names).toEqual(
      expect.arrayContaining([
        'runContract',
        'explore',
        'replay',
        'ContractReport',
        'ExploreReport',
        'ReplayReport',
        'TargetError',
        'TargetFileError',
        'ReplayFileError',
        'loadTargetFile',
        'parseTargetDescription',
      ]),
    );
  });

  it('are the names of the table in docs/package.md and of the README', () => {
    const doc = read('docs/package.md');
    const section = doc.slice(doc.indexOf('## What `./contract` exports'));
    const listed = [...section.matchAll(/^\| `(\w+)` +\|/gm)].map(([, name]) => name);
    expect(listed.sort()).toEqual([...names].sort());
    expect(section).toContain(`${names.length} names`);
    const readme = read('README.md');
    const fromCode = readme.slice(readme.indexOf('### From code (`answers-mock-kit/contract`)'));
    const table = fromCode.slice(0, fromCode.indexOf('\n\n', fromCode.indexOf('| for')));
    for (const name of names) expect(table, name).toContain(`\`${name}\``);
  });
});

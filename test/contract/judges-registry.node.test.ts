/**
 * Every clause with its judges, and no verdict made anywhere else: the fixed checks, explore's
 * steps and replay's exchanges gather evidence and hand it to src/contract/judges/, which alone
 * decides agreed, diverged or not judged, and alone names clauses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { JUDGING } from '../../src/contract/judges/index.ts';
import * as document from '../../src/contract/judges/document.ts';
import * as drift from '../../src/contract/judges/drift.ts';
import * as ownership from '../../src/contract/judges/ownership.ts';
import * as reads from '../../src/contract/judges/reads.ts';
import * as status from '../../src/contract/judges/status.ts';
import * as values from '../../src/contract/judges/values.ts';
import * as walks from '../../src/contract/judges/walks.ts';
import { OPERATION_NAMES } from '../../src/contract/target-api/description.ts';
import { CLAUSES } from '../../src/generated/clauses.ts';

const CONTRACT = fileURLToPath(new URL('../../src/contract/', import.meta.url));
const JUDGES = new Set<unknown>(
  [document, drift, ownership, reads, status, values, walks].flatMap((module) =>
    Object.values(module),
  ),
);

/**
 * Where a failure is still built outside the judges, and why it is not a verdict on a clause:
 * the HTTP client's "no answer that can be judged" (no response, a body too long or too deep, a
 * redirect it will not follow), the definition of the failure classes (`ensure` is for checks a
 * user writes), and the walk engine, whose paging failures are the next to move (each names
 * COLL-LIST-2 when a front-end keeps it).
 */
const NOT_VERDICTS = new Set(['client.ts', 'failure.ts', 'target-api/walk.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const OUTSIDE = sources(CONTRACT)
  .map((path) => ({ path, name: relative(CONTRACT, path) }))
  .filter(({ name }) => !name.startsWith('judges/'));

describe('the judging core', () => {
  it('lists every clause of docs/spec-gaps.md, each with its judges or why no check proves it', () => {
    expect(Object.keys(JUDGING).sort()).toEqual(CLAUSES.map(({ id }) => id).sort());
    for (const [clause, judging] of Object.entries(JUDGING)) {
      expect(judging.judges?.length || judging.noCheck, clause).toBeTruthy();
      for (const judge of judging.judges ?? []) expect(JUDGES.has(judge), clause).toBe(true);
      // A clause a check meets is judged; one no check can prove is met by none.
      if (judging.checks?.length || judging.profileChecks?.length)
        expect(judging.judges?.length, clause).toBeGreaterThan(0);
      if (judging.noCheck)
        expect([...(judging.checks ?? []), ...(judging.profileChecks ?? [])]).toEqual([]);
      for (const operation of judging.explore ?? []) expect(OPERATION_NAMES).toContain(operation);
    }
  });

  it('names only checks that exist, and every check by a clause it meets', () => {
    const named = new Set(
      Object.values(JUDGING).flatMap((judging) => [
        ...(judging.checks ?? []),
        ...(judging.profileChecks ?? []),
      ]),
    );
    const ids = CHECKS.map((check) => check.id);
    expect([...named].filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id) => !named.has(id))).toEqual([]);
  });

  it('finds no verdict made outside the judges', () => {
    const made = OUTSIDE.flatMap(({ path, name }) => {
      const text = readFileSync(path, 'utf8');
      const found: string[] = [];
      if (/new Divergence\(/.test(text)) found.push(`${name}: new Divergence`);
      if (!NOT_VERDICTS.has(name)) {
        if (/\bensure\(/.test(text)) found.push(`${name}: ensure`);
        if (/new CheckFailure\(/.test(text)) found.push(`${name}: new CheckFailure`);
      }
      return found;
    });
    expect(made).toEqual([]);
  });

  it('finds no clause id named outside the judges', () => {
    const ids = new Set<string>(CLAUSES.map(({ id }) => id));
    const named = OUTSIDE.flatMap(({ path, name }) =>
      [...readFileSync(path, 'utf8').matchAll(/['"`]([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)['"`]/g)]
        .map((match) => match[1]!)
        .filter((id) => ids.has(id))
        .map((id) => `${name}: ${id}`),
    );
    expect(named).toEqual([]);
  });

  it('the scans find what they look for (they can fail)', () => {
    expect(/new Divergence\(/.test("throw new Divergence('DEL-3', 'x', record)")).toBe(true);
    expect("x 'DEL-3' y".match(/['"`]([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)['"`]/)?.[1]).toBe('DEL-3');
  });
});

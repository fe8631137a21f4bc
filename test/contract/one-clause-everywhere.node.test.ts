/**
 * One rule, one verdict, whichever front-end meets it: the same broken rule (a deliberate defect
 * of the kit's mock, src/faults/) is run through a fixed check, through explore's steps and
 * through a replayed recording, and all three name the same clause; on the correct mock all
 * three agree. Each front-end only gathers evidence; the clause is the judge's
 * (src/contract/judges/), so a deleted object still found by search is DEL-3 everywhere.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startExploreModel, startMockTarget } from '../../src/bin/mock-target.ts';
import { CHECKS } from '../../src/contract/checks/index.ts';
import { ContractClient } from '../../src/contract/client.ts';
import { Coverage } from '../../src/contract/explore/comparison.ts';
import { runStep, type Step } from '../../src/contract/explore/steps/index.ts';
import { World } from '../../src/contract/explore/world.ts';
import { Divergence } from '../../src/contract/judges/verdict.ts';
import { replay } from '../../src/contract/replay/replay.ts';
import { runContract } from '../../src/contract/runner.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { Target } from '../../src/contract/target-api/target.ts';
import type { RecordedExchange, Recording } from '../../src/openapi/recording.ts';
import { RECORDING_FORMAT } from '../../src/openapi/recording.ts';
import { DEV_KEYS_BY_ROLE as KEYS } from '../../src/seed/dev-keys.ts';

const PREFIX = '/api/answers/v1';
const WORD = 'zqeverywhere';

/** A request of a consumer's test, its ids named by what created them (`{c}`, `{o}`). */
interface Call {
  method: string;
  path: string;
  body?: unknown;
  key?: 'full' | 'otherAccount' | 'inactive';
}

interface Row {
  fault: string;
  clause: string;
  /** The fixed check that meets the rule. */
  check: string;
  /** Explore's steps that meet it. */
  steps: Step[];
  /** A consumer's test that meets it, recorded against the correct mock. */
  calls: Call[];
}

const created = (key: 'full' | 'otherAccount' = 'full'): Call[] => [
  { method: 'POST', path: '/collections', body: { name: 'everywhere', metadata: {} }, key },
  {
    method: 'POST',
    path: '/collections/{c}/objects',
    body: { content: { text: `${WORD} one`, nested: { list: [1, { deep: 'kept' }] } } },
    key,
  },
];

const ROWS: Row[] = [
  {
    fault: 'soft-delete',
    clause: 'DEL-1',
    check: 'delete.collection',
    steps: [
      { kind: 'createCollection', key: 'full', metadata: {} },
      { kind: 'deleteCollection', ref: 0, key: 'owner' },
    ],
    calls: [
      ...created().slice(0, 1),
      { method: 'DELETE', path: '/collections/{c}' },
      { method: 'GET', path: '/collections/{c}' },
    ],
  },
  {
    fault: 'delete-not-cascading',
    clause: 'DEL-2',
    check: 'delete.cascade',
    steps: [
      { kind: 'createCollection', key: 'full', metadata: {} },
      { kind: 'createObject', ref: 0, key: 'owner', word: 0, content: { text: 'one' } },
      { kind: 'deleteCollection', ref: 0, key: 'owner' },
    ],
    calls: [
      ...created(),
      { method: 'DELETE', path: '/collections/{c}' },
      { method: 'GET', path: '/collections/{c}/objects/{o}' },
    ],
  },
  {
    fault: 'deleted-object-searchable',
    clause: 'DEL-3',
    check: 'delete.object',
    steps: [
      { kind: 'createCollection', key: 'full', metadata: {} },
      { kind: 'createObject', ref: 0, key: 'owner', word: 0, content: { text: 'one' } },
      { kind: 'deleteObject', ref: 0, key: 'owner' },
    ],
    calls: [
      ...created(),
      { method: 'DELETE', path: '/collections/{c}/objects/{o}' },
      { method: 'POST', path: '/search', body: { query: WORD } },
    ],
  },
  {
    fault: 'system-fields-missing',
    clause: 'OBJ-3',
    check: 'object.get',
    steps: [
      { kind: 'createCollection', key: 'full', metadata: {} },
      { kind: 'createObject', ref: 0, key: 'owner', word: 0, content: { text: 'one' } },
    ],
    calls: [...created(), { method: 'GET', path: '/collections/{c}/objects/{o}' }],
  },
  {
    fault: 'object-nested-content-dropped',
    clause: 'OBJ-GET-1',
    check: 'object.get',
    steps: [
      { kind: 'createCollection', key: 'full', metadata: {} },
      {
        kind: 'createObject',
        ref: 0,
        key: 'owner',
        word: 0,
        content: { text: 'one', nested: { list: [1, { deep: 'kept' }] } },
      },
    ],
    calls: [...created(), { method: 'GET', path: '/collections/{c}/objects/{o}' }],
  },
  {
    fault: 'cross-account-leak',
    clause: 'ISO-1',
    check: 'collection.isolation',
    steps: [
      { kind: 'createCollection', key: 'otherAccount', metadata: {} },
      { kind: 'getCollection', ref: 0, key: 'full' },
    ],
    calls: [...created('otherAccount').slice(0, 1), { method: 'GET', path: '/collections/{c}' }],
  },
  {
    fault: 'inactive-key-accepted',
    clause: 'ERR-401-2',
    check: 'auth.inactive-key',
    steps: [{ kind: 'walk', pageSize: 5, key: 'inactive' }],
    calls: [{ method: 'GET', path: '/collections', key: 'inactive' }],
  },
];

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function started(fault?: string) {
  const target = await startMockTarget(fault);
  stops.push(target.stop);
  return target;
}

/** The fixed check's verdict: the clause its judge found broken, or `pass`. */
async function fixedCheck(row: Row, fault?: string): Promise<string> {
  const target = await started(fault);
  const report = await runContract({
    baseUrl: target.baseUrl,
    keys: KEYS,
    checks: CHECKS.filter((check) => check.id === row.check),
    destructive: true,
  });
  const [result] = report.results;
  if (result?.outcome === 'fail') return result.broken ?? `no clause: ${result.reason}`;
  return result?.outcome ?? 'not run';
}

/** Explore's verdict on the row's steps: the divergence's clause, or `pass`. */
async function exploreSteps(row: Row, fault?: string): Promise<string> {
  const target = await started(fault);
  const model = await startExploreModel();
  stops.push(model.stop);
  const side = (baseUrl: string, key: string) =>
    new Target(DEFAULT_DESCRIPTION, new ContractClient(baseUrl, key, false), false);
  const world = new World(
    side(target.baseUrl, KEYS.full),
    side(model.baseUrl, model.keys.full),
    KEYS,
    model.keys,
    'everywhere',
    1,
    new Coverage(),
  );
  try {
    for (const step of row.steps) await runStep(world, step);
    return 'pass';
  } catch (error) {
    if (error instanceof Divergence) return error.clause;
    throw error;
  }
}

/** The row's consumer test, as the correct mock answered it: a recording of one sequence. */
async function recorded(row: Row): Promise<Recording> {
  const mock = await started();
  const ids: Record<string, string> = {};
  const exchanges: RecordedExchange[] = [];
  for (const call of row.calls) {
    const path = `${PREFIX}${call.path.replace(/\{(\w)\}/g, (_, name: string) => ids[name]!)}`;
    const response = await fetch(new URL(path, mock.baseUrl), {
      method: call.method,
      headers: {
        authorization: `Bearer ${KEYS[call.key ?? 'full']}`,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as { id?: string }) : undefined;
    if (call.method === 'POST' && call.path === '/collections') ids.c = json!.id!;
    if (call.method === 'POST' && call.path.endsWith('/objects')) ids.o = json!.id!;
    exchanges.push({
      operation: null,
      method: call.method,
      path,
      query: '',
      key: call.key ?? 'full',
      ...(call.body === undefined ? {} : { body: call.body }),
      status: response.status,
      ...(json === undefined ? {} : { response: json }),
    });
  }
  return { format: RECORDING_FORMAT, sequences: [{ name: row.fault, exchanges }] };
}

/** Replay's verdict on the row's recorded test: the divergence's clause, or `pass`. */
async function replayed(row: Row, fault?: string): Promise<string> {
  const recording = await recorded(row);
  const target = await started(fault);
  const report = await replay({
    baseUrl: target.baseUrl,
    keys: KEYS,
    recording,
    destructive: true,
  });
  const [sequence] = report.sequences;
  if (sequence?.divergence) return sequence.divergence.clause;
  return sequence && sequence.outcome.judged > 0 ? 'pass' : 'nothing judged';
}

describe.each(ROWS)('$fault breaks $clause', (row) => {
  it('the fixed check, explore and replay all name it', async () => {
    expect({
      check: await fixedCheck(row, row.fault),
      explore: await exploreSteps(row, row.fault),
      replay: await replayed(row, row.fault),
    }).toEqual({ check: row.clause, explore: row.clause, replay: row.clause });
  }, 30_000);

  it('on the correct mock all three agree', async () => {
    expect({
      check: await fixedCheck(row),
      explore: await exploreSteps(row),
      replay: await replayed(row),
    }).toEqual({ check: 'pass', explore: 'pass', replay: 'pass' });
  }, 30_000);
});

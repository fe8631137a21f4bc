/**
 * Random sequences of API operations against a fresh mock, checked step by step against a simple
 * model (fuzz/sequence-model.ts). Operations are plain JSON (`Op`, fuzz/sequence-operations.ts) so
 * that a shrunk counterexample can be pasted into a regression test and replayed with
 * {@link replaySequence}.
 *
 * A `parallel` step sends its operations at once (Promise.all); its outcome must equal the
 * outcome of running them one after the other in some order (the mock must be serialisable).
 */
import { createMock, type AnswersMock } from '../../src/index.ts';
import { emptyState } from '../../src/seed/empty-state.ts';
import { send, type Observed } from './fuzz-support.ts';
import {
  conforms,
  emptyModel,
  KEY,
  Mismatch,
  resolveCollection,
  type Model,
} from './fuzz/sequence-model.ts';
import type { Op } from './fuzz/sequence-operations.ts';
import {
  checkInvariants,
  checkListCollections,
  checkListObjects,
  checkSearch,
} from './fuzz/sequence-reads.ts';
import { prepare, type Prepared } from './fuzz/sequence-writes.ts';

async function sendPrepared(mock: AnswersMock, p: Prepared): Promise<Observed> {
  const response = await send(mock, KEY[p.as], p.method, p.path, p.body);
  conforms(p.operationId, p.label, response);
  return response;
}

/** All orders of a few items (at most 3! = 6). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

async function runStep(mock: AnswersMock, model: Model, op: Op): Promise<Model> {
  switch (op.op) {
    case 'listCollections':
      await checkListCollections(mock, model, op.as, op.limit, op.order);
      return model;
    case 'listObjects':
      await checkListObjects(
        mock,
        model,
        op.as,
        resolveCollection(model, op.as, op.c),
        op.limit,
        op.order,
      );
      return model;
    case 'search':
      await checkSearch(mock, model, op);
      return model;
    case 'parallel': {
      const prepared = op.ops.map((o) => prepare(model, o));
      const responses = await Promise.all(prepared.map((p) => sendPrepared(mock, p)));
      const failures: string[] = [];
      // Serialisable: the responses must be those of the requests run in some order.
      for (const orderOfRun of permutations(prepared.map((_, i) => i))) {
        const candidate = structuredClone(model);
        try {
          for (const i of orderOfRun) prepared[i]!.apply(candidate, responses[i]!);
          return candidate;
        } catch (error) {
          if (!(error instanceof Mismatch)) throw error;
          failures.push(`order ${orderOfRun}: ${error.message}`);
        }
      }
      throw new Mismatch(
        `concurrent requests match no serial order:\n  ${failures.join('\n  ')}\n  responses: ${responses
          .map((r) => `${r.status} ${r.text.slice(0, 160)}`)
          .join(' | ')}`,
      );
    }
    default: {
      const p = prepare(model, op);
      p.apply(model, await sendPrepared(mock, p));
      return model;
    }
  }
}
/**
 * Runs a sequence on a fresh, empty mock, checking the invariants after every step; replays one
 * sequence counterexample (for `test/regressions/`).
 */
export async function replaySequence(ops: Op[]): Promise<void> {
  const mock = await createMock({ initialState: emptyState, now: '2026-11-22T12:00:00.000Z' });
  let model = emptyModel();
  for (const [step, op] of ops.entries()) {
    try {
      model = await runStep(mock, model, op);
      await checkInvariants(mock, model, step);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`step ${step} (${JSON.stringify(op).slice(0, 300)}): ${message}`, {
        cause: error,
      });
    }
  }
}

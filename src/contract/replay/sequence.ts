/**
 * One consumer test's exchanges, replayed in order on the target through its description: names
 * rewritten to run names, ids mapped as the target creates them, keys by role. Each answer is
 * judged against the one the consumer saw, by explore's judges (`World`): statuses as the spec
 * and the description allow, then what the spec states of the answer (metadata and counts,
 * content and system fields, what a list and a search show of the sequence's own data).
 */
import type { RecordedExchange } from '../../openapi/recording.ts';
import { CheckFailure } from '../failure.ts';
import { writes, type OperationName } from '../target-api/description.ts';
import type { BodyValues } from '../target-api/target.ts';
import type { Sent } from '../explore/comparison.ts';
import type { CollectionPair, ObjectPair } from '../expectations/state.ts';
import { keyClause, OPERATION_CLAUSE, requestClause, roleClause } from '../judges/clause-of.ts';
import { ok, unreadable } from '../judges/status.ts';
import { refusedToDelete } from '../judges/ownership.ts';
import { collectionCreated } from '../judges/values.ts';
import { walkBroken } from '../judges/walks.ts';
import type { World } from '../explore/world.ts';
import { matchRequest, type MatchedRequest } from './match.ts';
import { judgeEffect, type ReplayState } from './effects.ts';
import type { SequenceOutcome } from './outcome.ts';
import { readKindOf } from '../settle.ts';

/** A recorded exchange read through the description it was recorded against. */
export function matched(world: World, exchange: RecordedExchange): MatchedRequest | undefined {
  return matchRequest(
    world.model.description,
    exchange.method,
    exchange.path,
    exchange.query,
    exchange.body,
  );
}

/** The state of one sequence's replay: the ids and names mapped so far. */
export class SequenceReplay implements ReplayState {
  readonly collections = new Map<string, CollectionPair>();
  readonly objects = new Map<string, ObjectPair>();
  readonly byTargetId = new Map<string, ObjectPair>();
  /** Each collection's name on the target now, by its target id. */
  readonly currentNames = new Map<string, string>();
  readonly #names = new Map<string, string>();
  readonly outcome: SequenceOutcome = { judged: 0, notJudged: {} };
  /** Set once a write the consumer saw succeed could not be replayed: the rest is not judged. */
  #broken: string | undefined;

  constructor(
    readonly world: World,
    /** The value sent for a key the consumer presented that no run key is (`unknown`). */
    readonly unknownKey: string,
  ) {}

  #skip(why: string): void {
    this.outcome.notJudged[why] = (this.outcome.notJudged[why] ?? 0) + 1;
  }

  /** A compatibility note: what the test relies on that the target decides otherwise. */
  #note(note: string): void {
    const notes = (this.outcome.compatibility ??= {});
    notes[note] = (notes[note] ?? 0) + 1;
  }

  /** Replays one exchange; throws the divergence it shows, if it shows one. */
  async exchange(exchange: RecordedExchange): Promise<void> {
    if (exchange.afterOutsideChange && !this.#broken)
      this.#broken = 'after the test changed the mock’s data outside the API (mock.db, factories)';
    if (this.#broken) return this.#skip(this.#broken);
    if (exchange.forced) return this.#skip('an answer the test forced (failNext, Prefer)');
    const request = matched(this.world, exchange);
    if (!request) return this.#skip('not an operation of the description it was recorded against');
    const { operation } = request;
    const consumerWrote = writes(operation) && ok(exchange.status);
    const skip = (why: string) => {
      // @note A write the consumer relied on that is not replayed leaves the target's data
      // unlike the consumer's: nothing after it can be judged fairly.
      if (consumerWrote) this.#broken = 'after a write of the test’s that could not be replayed';
      this.#skip(why);
    };
    if (!this.world.target.offers(operation)) return skip(this.world.target.missing(operation));
    const role = exchange.key;
    const key =
      role === 'none' ? null : role === 'unknown' ? this.unknownKey : this.world.keys[role];
    if (key === undefined) return skip(`no ${role} key was given`);
    // @note A key that served the consumer, yet is none the run was given (a HAR's own key):
    // its role is not known, so what the target must answer to it is not either.
    if (role === 'unknown' && ok(exchange.status))
      return skip('a key that served the consumer and that the run was not given');
    // @note A refusal the spec states (a key refused, or what is absent) is judged; any other
    // (400, 409, 413, 422, a 5xx) is a decision of the recorded side's own, which a correct
    // target may take otherwise: not sent, so the target's data stays the consumer's.
    const source = this.world.model;
    if (
      !ok(exchange.status) &&
      exchange.status !== 401 &&
      exchange.status !== 404 &&
      !source.isGone(exchange.status) &&
      !source.isNotYours(exchange.status)
    )
      return skip(`a ${exchange.status} the spec does not state`);
    const collection = this.collections.get(request.params.collection_id ?? '');
    const object = this.objects.get(request.params.object_id ?? '');
    if (
      (request.params.collection_id !== undefined && !collection) ||
      (request.params.object_id !== undefined && !object)
    )
      return skip('it names data the sequence did not create (seeded, or another test’s)');
    const values = this.#values(operation, request.values);
    if (values === undefined) return skip('its scope names data the sequence did not create');
    // @note An update the target takes whole (a PUT of name and metadata) gets what the consumer
    // left out as it is now: unchanged under any update style.
    if (operation === 'updateCollection' && collection) {
      values.name ??= this.currentNames.get(collection.target);
      values.metadata ??= collection.metadata[
        this.world.target.description.updates.metadata ?? 'replace'
      ] as Record<string, unknown>;
    }
    const params: Record<string, string> = {};
    const owner = object?.collection ?? collection;
    if (owner) params.collection_id = owner.target;
    if (object) params.object_id = object.target;
    const query = this.#query(request, exchange.query);
    if (query === undefined) return skip('a page past the first: the target pages its own way');
    const keyName = role === 'none' || role === 'unknown' ? null : role;
    const pair = object ?? collection;
    // @note What it names is judged by its state, as explore and the fixed checks judge it: a
    // get of a deleted collection is DEL-1, of an object of one DEL-2, of a deleted object DEL-3.
    const clause =
      role === 'none' || role === 'unknown'
        ? roleClause(role)
        : pair
          ? requestClause(pair, keyName, writes(operation), OPERATION_CLAUSE[operation])
          : keyClause(keyName, writes(operation), OPERATION_CLAUSE[operation]);
    const why = pair?.deleted || !keyName || !pair ? 'gone' : this.world.why(pair, keyName);
    const consumer: Sent = {
      status: exchange.status,
      json: exchange.response,
      text: '',
      headers: new Headers(),
      method: exchange.method,
      path: exchange.path,
    };
    const described = `${exchange.method} ${exchange.path}${exchange.query ? `?${exchange.query}` : ''} (key ${role})`;
    // @note Every delete reads the collection back first, as the clean-up does: one shown with
    // a name the run never gave it is someone else's now, and is not deleted.
    if (operation === 'deleteCollection' && collection) {
      const refused = await this.world.mayNotDelete(collection);
      if (refused !== undefined) {
        const record = { request: described, model: `${exchange.status}`, target: 'not sent' };
        this.world.records.push(record);
        this.world.judged(refusedToDelete(refused), record);
      }
    }
    const send = async () => {
      const run = () => this.world.target.send(operation, { key, params, body: values, query });
      const collectionWrite = operation === 'createCollection' || operation === 'deleteCollection';
      // @note Beside other sequences' writes, never beside a walk (the world's gate: shared
      // where the target pages by position).
      const sent = collectionWrite ? await this.world.gate.write(run) : await run();
      this.world.requests += 1;
      this.world.coverage.count(this.world.coverage.operations, operation);
      return sent;
    };
    let unjudged = false;
    const attempt = async () => {
      unjudged = false;
      let answer: Sent;
      try {
        answer = await send();
        // @note Read here: an answer nested too deep to read is this exchange's divergence.
        void answer.json;
      } catch (error) {
        if (!(error instanceof CheckFailure)) throw error;
        const record = { request: described, model: `${exchange.status}`, target: error.message };
        this.world.records.push(record);
        this.world.judged(unreadable(clause, error.message, error.clause), record);
        throw error;
      }
      // @note What the target made is the run's to delete, judged or not; unless it is not the
      // run's (`RunData.claim`): then the test ends here, and nothing is sent to it.
      const refused =
        operation === 'createCollection' && ok(answer.status) && key !== null
          ? await this.#claim(answer, values, key)
          : undefined;
      // @note A page size the target refuses is its limit (the spec states none): what the test
      // asks for is noted, not judged, and never changed silently.
      // (Where the description states the limit, the page was asked for within it: a refusal then
      // is judged.)
      const { paging, limits } = this.world.target.description;
      const size =
        paging.pageSize !== undefined && limits.pageSize === undefined
          ? query[paging.pageSize]
          : undefined;
      if (
        size !== undefined &&
        ok(exchange.status) &&
        (answer.status === 400 || answer.status === 422)
      ) {
        this.#note(
          `the test asks for ${size} per page of ${operation}, which this target refuses (${answer.status}): a page size limit the spec does not state (its description can say limits.pageSize)`,
        );
        unjudged = true;
        return;
      }
      const record = this.world.record(described, consumer, answer);
      if (refused !== undefined) this.world.judged(collectionCreated(undefined, refused), record);
      // @note Two statuses that mean the same absence in their descriptions agree; the test
      // still relied on one of them.
      if (
        !ok(exchange.status) &&
        answer.status !== exchange.status &&
        this.world.absent('model', why, exchange.status) &&
        this.world.absent('target', why, answer.status)
      )
        this.#note(
          `the test saw ${exchange.status} for ${operation} where this target answers ${answer.status} (both "${why === 'gone' ? 'gone' : 'not yours'}" in their descriptions)`,
        );
      this.world.answered(clause, consumer, answer, record, why);
      if (ok(exchange.status) && ok(answer.status))
        this.#broken = await judgeEffect(this, {
          request,
          values,
          consumer,
          answer,
          record,
          key,
          keyName,
        }).catch((error: unknown) => {
          // @note A walk of the list that fails (a page refused, a token repeated) fails the
          // list, as in explore.
          if (!(error instanceof CheckFailure)) throw error;
          this.world.judged(walkBroken(error.message, error.clause), record);
          throw error;
        });
    };
    // @note A read after writes may take its window to show them (`consistency`, `--settle`).
    if (writes(operation)) await attempt();
    else await this.world.settled(attempt, readKindOf(operation));
    if (unjudged) return this.#skip('a page size the target refuses (a compatibility note)');
    this.outcome.judged += 1;
  }

  /** The run's values for the target: names rewritten, a scope's ids mapped. */
  #values(operation: OperationName, recorded: BodyValues): BodyValues | undefined {
    const values: BodyValues = { ...recorded };
    if (typeof recorded.name === 'string') {
      let name = this.#names.get(recorded.name);
      if (name === undefined) {
        // @note The shape of explore's names (`x<sequence>-<n>`), which `sweep` knows.
        name = this.world.collectionName(String(this.#names.size + 1));
        this.#names.set(recorded.name, name);
      }
      values.name = name;
    }
    if (Array.isArray(recorded.collection_ids)) {
      const ids = recorded.collection_ids.map((id) => this.collections.get(String(id))?.target);
      if (ids.some((id) => id === undefined)) return undefined;
      // @note A scope the description cannot send is left out: the search is then judged
      // unscoped (only the sequence's own hits are).
      if (operation === 'search' && !this.world.target.canScopeSearch())
        delete values.collection_ids;
      else values.collection_ids = ids as string[];
    }
    return values;
  }

  /**
   * The query the target is sent: a page size in the target's own parameter (within its
   * limit); undefined for a page past the first, which only the source's paging can name.
   */
  #query(request: MatchedRequest, recorded: string): Record<string, string> | undefined {
    if (request.operation !== 'listCollections' && request.operation !== 'listObjects') return {};
    const from = this.world.model.description.paging;
    const to = this.world.target.description.paging;
    const query = new URLSearchParams(recorded);
    for (const param of [from.pageToken, from.page, from.offset])
      if (param && query.has(param)) {
        const value = query.get(param)!;
        const first = param === from.page ? String(from.firstPage ?? 1) : '0';
        if (param === from.pageToken || value !== first) return undefined;
      }
    const size = from.pageSize ? Number(query.get(from.pageSize)) : NaN;
    if (!to.pageSize || !Number.isInteger(size) || size <= 0) return {};
    // @note Past the limit the description states, the page asked for is the limit's, and the
    // test's reliance on more is a compatibility note: never changed silently.
    const within = this.world.pageSize(size);
    if (within < size)
      this.#note(
        `the test asks for ${size} per page of ${request.operation}; this target's page size is at most ${within} (limits.pageSize), so the page was asked for with ${within}`,
      );
    return { [to.pageSize]: String(within) };
  }

  #claim(answer: Sent, values: BodyValues, key: string): Promise<string | undefined> {
    const { target } = this.world;
    const shown = target.collectionIn(answer.json);
    const id = target.collectionIdOf(shown);
    return id === undefined
      ? Promise.resolve(undefined)
      : this.world.run.claim(id, shown, values.name ?? '', key);
  }
}

/**
 * One sequence of `explore` (or of `replay`): the two sides a step is sent to (the target,
 * through its description, and the side it is compared with: the kit's mock, or the answers a
 * consumer saw), what a correct target must now show of the sequence's data (`expected`), and
 * the run's own data (`run`). It sends and records; the judges (src/contract/judges) decide.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { CheckFailure } from '../failure.ts';
import { RunData, type BeforeRun } from '../runner/run-data.ts';
import { PROFILE_OPERATION, type BodyValues, type Target } from '../target-api/target.ts';
import { writes, type OperationName } from '../target-api/description.ts';
import { bodyDecision } from '../../openapi/response-validation.ts';
import {
  Expected,
  type CollectionPair,
  type ObjectPair,
  type Pair,
} from '../expectations/state.ts';
import { absentAs, answeredAlike, ok, type Absence } from '../judges/status.ts';
import { accountOf, OPERATION_CLAUSE, requestClause, type KeyName } from '../judges/clause-of.ts';
import { diverged, uphold, type StepRecord, type Verdict } from '../judges/verdict.ts';
import { short } from '../judges/json.ts';
import { judgedByDocument } from '../judges/document.ts';
import { WORDS, type Coverage, type Keys, type SendBoth, type Sent } from './comparison.ts';
import { fit, LimitsLearned } from './limits.ts';
import { refusalReadBack } from './refused-read-back.ts';
import { Gate } from '../runner/gate.ts';
import { objectsLeft } from '../runner/leftovers.ts';
import { Settle, type ReadKind } from '../settle.ts';
import { CreationClock, CreationSpacing } from './creation-clock.ts';

/** The statuses of a write refused cleanly: a bad request, too large, unprocessable. */
const CLEAN_REFUSALS = [400, 413, 422];

/** The operations on one of a sequence's collections or objects (`World.on`). */
type ResourceOperation =
  | 'getCollection'
  | 'updateCollection'
  | 'deleteCollection'
  | 'createObject'
  | 'getObject'
  | 'replaceObject'
  | 'updateObject'
  | 'deleteObject';

export class World {
  readonly records: StepRecord[] = [];
  readonly expected: Expected;
  readonly run: RunData;
  stepNumber = 0;
  /** Collections named so far: a step may create more than one (a walk's writes). */
  #names = 0;
  #renames = 0;
  requests = 0;
  /** The limits the run learned of the target, shared by its sequences. */
  limits = new LimitsLearned();
  /** How long a read after a write may take to show it, by kind of read (`--settle`, `consistency`). */
  settle = new Settle(0);
  /** `--level profile`: our document's statuses and problem codes, exactly. */
  profile = false;
  /** Shared by the sequences side by side (gate.ts); one of its own when alone. */
  gate = new Gate();
  /** What the answers compared with are called in messages: `replay`'s are what the consumer saw. */
  modelName = 'the model';
  /** A walk is running: its own collection writes are inside the gate already. */
  walking = false;
  /** The spacing of collection creations past the target's clock (creation-clock.ts). */
  spacing = new CreationSpacing(new CreationClock());

  constructor(
    readonly target: Target,
    readonly model: Target,
    readonly keys: Keys,
    readonly modelKeys: Keys,
    readonly runId: string,
    readonly sequence: number,
    readonly coverage: Coverage,
    /** Deletes what the sequence made: the target, never held to openapi.yaml while it does. */
    readonly cleaner: Target = target,
    /** What the list showed before the run: never the run's (`listBeforeRun`). */
    before?: BeforeRun,
  ) {
    this.run = new RunData(cleaner, runId, before);
    this.expected = new Expected(target.description.updates);
  }

  /**
   * The sequence's clean-up, whatever ended it: its collections deleted (each read back first,
   * beside other sequences' writes, never beside a walk), then its objects looked for, a get of
   * each and a search for each of `words` (`objectsLeft`). Whether the list still shows any of the
   * run's collections is looked at once, at the run's end (`Run.lookBack`). Returns what is left.
   */
  async cleanUp(objects: readonly ObjectPair[], words: readonly string[]): Promise<string[]> {
    const kept = await this.gate.write(() => this.run.cleanup(this.keys, undefined, false));
    const keyOf = (object: ObjectPair) => this.keys[object.key] ?? this.keys.full;
    const left = await objectsLeft(this.cleaner, objects, keyOf, this.settle, words, kept);
    return [...kept, ...left];
  }

  collectionName(what: string): string {
    return this.run.name(`x${this.sequence}-${what}`);
  }

  /** A word planted in content, unique to this sequence of this run. */
  word(index: number): string {
    return `zq${this.runId}s${this.sequence}w${index % WORDS}`;
  }

  /** A page size within the target's declared largest (`limits.pageSize`). */
  pageSize(size: number): number {
    return Math.min(size, this.target.description.limits.pageSize ?? size);
  }

  /**
   * A read after writes, asked again while it diverges, within the window of its kind (`lists`
   * by default): what the attempts before the last recorded is dropped.
   */
  settled(read: () => Promise<void>, kind: ReadKind = 'lists'): Promise<void> {
    const records = this.records.length;
    return this.settle.until(read, kind, () => {
      this.records.length = records;
    });
  }

  /** Sends the same operation to both sides. */
  async both(
    operation: Parameters<Target['send']>[0],
    key: KeyName | null,
    options: SendBoth = {},
  ): Promise<[Sent, Sent]> {
    this.coverage.count(this.coverage.operations, operation);
    this.requests += 2;
    // @note Within the target's declared limits (`limits`), on both sides alike.
    const bodies = {
      target: this.fit(options.body?.('target')),
      model: this.fit(options.body?.('model')),
    };
    const send = (side: 'target' | 'model') =>
      this[side].send(operation, {
        key: key === null ? null : (side === 'target' ? this.keys : this.modelKeys)[key],
        params: options.params?.(side),
        body: bodies[side],
        raw: options.raw,
        query: options.query?.(side),
        headers: options.headers?.(side),
      });
    // @note The target's answer is read here, where an answer that cannot be read (nested
    // deeper than LIMITS.maxAnswerDepth) is the step's divergence, as a failed send is.
    const read = (sent: Sent) => {
      void sent.json;
      return sent;
    };
    const both = () =>
      Promise.all([
        send('target')
          .then(read)
          .catch((error: unknown) => error),
        send('model'),
      ]);
    // @note A collection comes or goes: not while another sequence walks the list.
    const [target, model] =
      (operation === 'createCollection' || operation === 'deleteCollection') && !this.walking
        ? await this.gate.write(both)
        : await both();
    // @note At `--level profile` a response that breaks openapi.yaml fails the step that got it.
    if (target instanceof CheckFailure) {
      const record = {
        request: `${operation} (key ${key ?? 'none'})`,
        model: `${model.status}`,
        target: target.message,
      };
      this.records.push(record);
      this.judged(
        diverged(target.clause ?? bodyDecision(PROFILE_OPERATION[operation], 200), target.message),
        record,
      );
    }
    if (target instanceof Error) throw target;
    // @note A size or shape the spec does not bound (§8): a clean refusal past what the target
    // took before is its limit, which its description did not state (limits.ts).
    if (bodies.target !== undefined && writes(operation)) {
      const status = (target as Sent).status;
      if (ok(status)) this.limits.took(bodies.target);
      else if (CLEAN_REFUSALS.includes(status) && ok(model.status)) {
        const atLimit = this.limits.refused(bodies.target, status);
        if (atLimit) {
          // @note A refusal stores nothing: one that shows what it refused is no limit.
          const keyValue = key === null ? undefined : this.keys[key];
          const verdict = await refusalReadBack(
            this.target,
            this.expected,
            operation,
            options.params?.('target') ?? {},
            bodies.target,
            keyValue,
          );
          if (verdict?.outcome === 'diverged') {
            const record = this.record(
              `${operation} (key ${key ?? 'none'})`,
              model,
              target as Sent,
            );
            this.judged(verdict, record);
          }
          throw atLimit;
        }
      }
    }
    if (this.profile) this.judgedByDocument(operation, (target as Sent).status);
    return [target as Sent, model];
  }

  /**
   * Sends `operation` on one of the sequence's collections or objects to both sides, records it
   * as `request`, and has its status judged: absent once the resource (or its collection) is
   * deleted or is another account's, else as the operation's clause says.
   */
  async on(
    operation: ResourceOperation,
    pair: CollectionPair | ObjectPair,
    key: KeyName,
    request: string,
    body?: () => BodyValues,
  ): Promise<[Sent, Sent, StepRecord]> {
    const [target, model] = await this.both(operation, key, {
      params: (side) =>
        'collection' in pair
          ? { collection_id: pair.collection[side], object_id: pair[side] }
          : { collection_id: pair[side] },
      ...(body ? { body } : {}),
    });
    const record = this.record(request, model, target);
    const clause = requestClause(pair, key, writes(operation), OPERATION_CLAUSE[operation]);
    this.answered(clause, model, target, record, this.why(pair, key));
    return [target, model, record];
  }

  /** Counts what openapi.yaml judged of a response that passed it (`--level profile`). */
  judgedByDocument(operation: OperationName, status: number): void {
    for (const clause of judgedByDocument(operation, status))
      this.coverage.count(this.coverage.clauses, clause);
  }

  fit<T extends BodyValues | undefined>(values: T): T {
    return fit(values, this.limits.within(this.target.description.limits)) as T;
  }

  /** Why a collection must not be deleted, read back first (`RunData.mayNotDelete`). */
  mayNotDelete(pair: CollectionPair): Promise<string | undefined> {
    return this.run.mayNotDelete(pair.target, this.keys[pair.key] ?? this.keys.full);
  }

  record(request: string, model: Sent, target: Sent, extra = ''): StepRecord {
    const record = {
      request,
      model: `${model.status}${extra ? ` ${extra}` : ''}`,
      target: `${target.status} ${short(target.json)}`,
    };
    this.records.push(record);
    this.coverage.count(this.coverage.statuses, target.status);
    return record;
  }

  /**
   * A verdict of a judge, as the run keeps it: counted where it could have gone either way, its
   * reason kept where it could not, and the step ended where it diverged.
   */
  judged(verdict: Verdict, record: StepRecord): void {
    if (verdict.outcome === 'notJudged') {
      const reasons = this.coverage.notJudged.get(verdict.clause) ?? new Map<string, number>();
      reasons.set(verdict.reason, (reasons.get(verdict.reason) ?? 0) + 1);
      this.coverage.notJudged.set(verdict.clause, reasons);
    } else this.coverage.count(this.coverage.clauses, verdict.clause);
    uphold(verdict, record);
  }

  /** The target's status, judged against the model's (answeredAlike) under `clause`. */
  answered(
    clause: ClauseId,
    model: Sent,
    target: Sent,
    record: StepRecord,
    why: Absence = 'gone',
  ): void {
    const code = (sent: Sent) => (sent.json as { code?: unknown } | undefined)?.code;
    this.judged(
      answeredAlike({
        clause,
        // @note The model's "not found" is 404 whatever its description calls it (a model other
        // than the kit's mock may answer 410 for gone): the target is judged by its own.
        expected: this.#modelAbsent(model.status) ? 404 : model.status,
        actual: target.status,
        why,
        statuses: this.target.statuses,
        exact: this.profile,
        read: model.method === 'GET' || clause === OPERATION_CLAUSE.search,
        codes: { expected: code(model), actual: code(target) },
        expectedBy: this.modelName,
      }),
      record,
    );
  }

  /** A refusal the model's description counts as gone or not yours (never a refused key). */
  #modelAbsent(status: number): boolean {
    return status !== 401 && (this.model.isGone(status) || this.model.isNotYours(status));
  }

  /** Whether a status of the target, or of the model, says "absent" the way `why` allows. */
  absent(side: 'target' | 'model', why: Absence, status: number): boolean {
    return side === 'model'
      ? status === 404 || this.#modelAbsent(status)
      : absentAs(this.target.statuses, why, status);
  }

  /** A fresh number for a rename: apart from creates', so that their names stay as they were. */
  nextRename(): number {
    this.#renames += 1;
    return this.#renames;
  }

  /** A fresh number for a collection's name: a step may create more than one. */
  nextName(): number {
    this.#names += 1;
    return this.#names;
  }

  /** Whose a resource is, for the key presenting itself: the other account's or its own. */
  why(pair: Pair, key: KeyName): 'gone' | 'notYours' {
    return accountOf(pair.key) === accountOf(key) ? 'gone' : 'notYours';
  }
}

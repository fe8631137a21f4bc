/**
 * One sequence of `explore`: each step sent to the target, through its description, and to the
 * model (the kit's mock, through the kit's own description), then compared on what the spec
 * states and the description maps. Ids are mapped as resources are created; the target's own
 * data, ids, timestamps, scores and ranking are never compared.
 */
import type { ClauseId } from '../../generated/clauses.ts';
import { CheckFailure } from '../failure.ts';
import { RunData, type BeforeRun } from '../target-api/run-data.ts';
import { PROFILE_OPERATION, type BodyValues, type Target } from '../target-api/target.ts';
import type { OperationName } from '../target-api/description.ts';
import { bodyDecision } from '../../openapi/response-validation.ts';
import {
  canonical,
  Divergence,
  ok,
  short,
  type CollectionPair,
  type Coverage,
  type Keys,
  type ObjectPair,
  type Pair,
  type SendBoth,
  type Sent,
  type StepRecord,
  TooLarge,
} from './comparison.ts';
import { createCollection, deleteCollection, getCollection } from './collection-steps.ts';
import type { Absence, Explorer } from './explorer.ts';
import { bodyBytes, fit, LARGE_BODY_BYTES } from './limits.ts';
import { Gate } from './gate.ts';
import { WORDS, type KeyName } from './step-kind.ts';
import { kindOf, type Step } from './steps/index.ts';

/** Whether the target's status `t` says "absent" the way `why` allows. */
function absentAs(target: Target, why: Absence, t: number): boolean {
  if (why === 'gone') return target.isGone(t);
  // @note Another account's resource was never the caller's to see: "never existed" answers
  // (404) are as right as the description's own.
  if (why === 'notYours') return t === 404 || target.isNotYours(t) || target.isGone(t);
  return t === 404 || target.isGone(t) || target.isNotYours(t);
}

export class World implements Explorer {
  readonly records: StepRecord[] = [];
  readonly collections: CollectionPair[] = [];
  readonly objects: ObjectPair[] = [];
  readonly run: RunData;
  stepNumber = 0;
  /** Collections named so far: a step may create more than one (a walk's writes). */
  #names = 0;
  requests = 0;
  /** How long a read after a write may take to show it (`--settle`). */
  settleMs = 0;
  /** `--level profile`: our document's statuses and problem codes, exactly. */
  profile = false;
  /** Shared by the sequences side by side (gate.ts); one of its own when alone. */
  gate = new Gate();
  /** What the answers compared with are called in messages: `replay`'s are what the consumer saw. */
  modelName = 'the model';
  #walking = false;

  constructor(
    readonly target: Target,
    readonly model: Target,
    readonly keys: Keys,
    readonly modelKeys: Keys,
    readonly runId: string,
    readonly sequence: number,
    readonly coverage: Coverage,
    /** Deletes what the sequence made: the target, never held to openapi.yaml while it does. */
    cleaner: Target = target,
    /** What the list showed before the run: never the run's (`listBeforeRun`). */
    before?: BeforeRun,
  ) {
    this.run = new RunData(cleaner, runId, before);
  }

  collectionName(what: string): string {
    return this.run.name(`x${this.sequence}-${what}`);
  }

  /** A word planted in content, unique to this sequence of this run. */
  word(index: number): string {
    return `zq${this.runId}s${this.sequence}w${index % WORDS}`;
  }

  async step(step: Step): Promise<void> {
    this.stepNumber += 1;
    try {
      // @note A walk passes the gate alone; its own writes between pages are inside it.
      const kind = kindOf(step);
      if (kind.walks) {
        await this.gate.walk(async () => {
          this.#walking = true;
          try {
            await kind.run(this, step);
          } finally {
            this.#walking = false;
          }
        });
      } else await kind.run(this, step);
      if (this.profile && kind.walks) this.#judgedByDocument('listCollections', 200);
    } catch (error) {
      // A walk that fails (a page refused, or breaking openapi.yaml at `--level profile`).
      if (!(error instanceof CheckFailure)) throw error;
      const record = {
        request: `${step.kind} (a walk of the list)`,
        model: '200',
        target: error.message,
      };
      this.records.push(record);
      // @note A page that breaks openapi.yaml (`--level profile`) names the decision it goes
      // against; any other failure of a walk breaks the walk.
      throw new Divergence(error.clause ?? 'COLL-LIST-2', error.message, record);
    }
  }

  /** A page size within the target's declared largest (`limits.pageSize`). */
  pageSize(size: number): number {
    return Math.min(size, this.target.description.limits.pageSize ?? size);
  }

  /** A read after writes, asked again while it diverges, for `--settle` at most. */
  async settled(read: () => Promise<void>): Promise<void> {
    const started = performance.now();
    const records = this.records.length;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        const left = this.settleMs - (performance.now() - started);
        if (!(error instanceof Divergence) || left <= 0) throw error;
        this.records.length = records;
        await new Promise((resume) => setTimeout(resume, Math.min(100, left)));
      }
    }
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
      (operation === 'createCollection' || operation === 'deleteCollection') && !this.#walking
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
      throw new Divergence(
        target.clause ?? bodyDecision(PROFILE_OPERATION[operation], 200),
        target.message,
        record,
      );
    }
    if (target instanceof Error) throw target;
    const bytes = bodyBytes(bodies.target);
    if ((target as Sent).status === 413 && ok(model.status) && bytes >= LARGE_BODY_BYTES)
      throw new TooLarge(bytes);
    if (this.profile) this.#judgedByDocument(operation, (target as Sent).status);
    return [target as Sent, model];
  }

  /** Counts what openapi.yaml judged of a response that passed it (`--level profile`). */
  #judgedByDocument(operation: OperationName, status: number): void {
    const count = (clause: string) => this.coverage.count(this.coverage.clauses, clause);
    count('GAP-MEDIA');
    count('GAP-ERR-STATUS');
    if (status >= 400) count('GAP-ERR-BODY');
    if (status === 401) count('GAP-AUTH-CHALLENGE');
    if (ok(status)) count(bodyDecision(PROFILE_OPERATION[operation], status));
  }

  fit<T extends BodyValues | undefined>(values: T): T {
    return fit(values, this.target.description.limits) as T;
  }

  claim(
    targetId: string,
    answer: unknown,
    name: string,
    key: KeyName,
  ): Promise<string | undefined> {
    return this.run.claim(targetId, answer, name, this.keys[key] ?? '');
  }

  mayNotDelete(pair: CollectionPair): Promise<string | undefined> {
    return this.run.mayNotDelete(pair.target, this.keys[pair.key] ?? this.keys.full);
  }

  track(targetId: string, name: string, answer: unknown, key: KeyName): void {
    this.run.track(targetId, name, answer, this.keys[key]);
  }

  forget(targetId: string): void {
    this.run.forget(targetId);
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

  /** Fails unless both sides answered the same way, as the spec and description say. */
  agree(
    clause: ClauseId,
    model: Sent,
    target: Sent,
    record: StepRecord,
    why: Absence = 'gone',
  ): void {
    this.coverage.count(this.coverage.clauses, clause);
    const t = target.status;
    // @note The model's "not found" is 404 whatever its description calls it (a model other than
    // the kit's mock may answer 410 for gone): the target is judged by its own description.
    const m = this.#modelAbsent(model.status) ? 404 : model.status;
    // @note The spec states 401 for every refusal of a key (§7), a lacking permission included:
    // never 403. At `--level profile` the statuses are our document's, exactly.
    const agrees = this.profile
      ? m === t
      : ok(m) === ok(t) &&
        (ok(m) ||
          (m === 404 && absentAs(this.target, why, t)) ||
          (m === 401 && t === 401) ||
          (m !== 404 && m !== 401 && Math.floor(m / 100) === Math.floor(t / 100)));
    if (!agrees) {
      // @note Another account's resource served is the isolation judge's, whatever the read:
      // the key identifies the caller's account (§5.1), the list is of it (§4). A write to it
      // keeps the operation's clause (DEL-1 for a delete, OBJ-1 for a create in it).
      const read = model.method === 'GET' || clause === 'SEARCH-1';
      if (why === 'notYours' && m === 404 && ok(t) && read) {
        this.coverage.count(this.coverage.clauses, 'ISO-1');
        throw new Divergence(
          'ISO-1',
          `${this.modelName} answered ${m} (another account's), the target ${t}: it served another account's resource`,
          record,
        );
      }
      const statuses = this.target.statuses;
      const absent =
        why === 'gone'
          ? statuses.gone
          : why === 'notYours'
            ? [404, ...statuses.notYours, ...statuses.gone]
            : [404, ...statuses.gone, ...statuses.notYours];
      const named = { gone: 'gone', notYours: 'not yours', never: 'never existing' }[why];
      const counted =
        m === 404
          ? ` (its description counts ${[...new Set(absent)].join(' or ')} as ${named})`
          : '';
      throw new Divergence(
        clause,
        `${this.modelName} answered ${m}, the target ${t}${counted}`,
        record,
      );
    }
    const code = (sent: Sent) => (sent.json as { code?: unknown } | undefined)?.code;
    if (this.profile && !ok(m) && code(model) !== code(target))
      throw new Divergence(
        'GAP-ERR-CODES',
        `the model's problem code is ${String(code(model))}, the target's ${String(code(target))}`,
        record,
      );
  }

  /** A refusal the model's description counts as gone or not yours (never a refused key). */
  #modelAbsent(status: number): boolean {
    return status !== 401 && (this.model.isGone(status) || this.model.isNotYours(status));
  }

  absent(side: 'target' | 'model', why: Absence, status: number): boolean {
    return side === 'model'
      ? status === 404 || this.#modelAbsent(status)
      : absentAs(this.target, why, status);
  }

  collection(ref: number): CollectionPair | undefined {
    const list = this.collections;
    return list.length === 0 ? undefined : list[ref % list.length];
  }

  createCollection(key: KeyName, metadata: Record<string, unknown>): Promise<void> {
    return createCollection(this, key, metadata);
  }

  getCollection(ref: number, key: KeyName): Promise<void> {
    return getCollection(this, ref, key);
  }

  deleteCollection(ref: number, key: KeyName, readBack = true): Promise<void> {
    return deleteCollection(this, ref, key, readBack);
  }

  /** A fresh number for a collection's name: a step may create more than one. */
  nextName(): number {
    this.#names += 1;
    return this.#names;
  }

  /** Whose a collection is, for the key presenting itself: the other account's or its own. */
  why(pair: Pair, key: KeyName): 'gone' | 'notYours' {
    const account = (k: KeyName) => (k === 'otherAccount' ? 'other' : 'own');
    return account(pair.key) === account(key) ? 'gone' : 'notYours';
  }

  same(clause: ClauseId, what: string, model: unknown, target: unknown, record: StepRecord): void {
    this.coverage.count(this.coverage.clauses, clause);
    if (JSON.stringify(canonical(model)) !== JSON.stringify(canonical(target)))
      throw new Divergence(
        clause,
        `${what}: ${this.modelName} has ${short(model)}, the target ${short(target)}`,
        record,
      );
  }
}

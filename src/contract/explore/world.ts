/**
 * One sequence of `explore`: each step sent to the target, through its description, and to the
 * model (the kit's mock, through the kit's own description), then compared on what the spec
 * states and the description maps. Ids are mapped as resources are created; the target's own
 * data, ids, timestamps, scores and ranking are never compared.
 */
import { RunData } from '../target/run-data.ts';
import type { Target } from '../target/target.ts';
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
  type Sent,
  type StepRecord,
} from './comparison.ts';
import { createObject, createObjects, getObject } from './object-steps.ts';
import { search, walk } from './read-steps.ts';
import { walkAcrossKeys, walkWhileWriting } from './walk-steps.ts';
import { deleteObject, replaceObject, updateCollection } from './write-steps.ts';
import type { Explorer } from './explorer.ts';
import { WORDS, type KeyName, type Step } from './steps.ts';

export { Coverage, Divergence, type Keys, type StepRecord } from './comparison.ts';

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

  constructor(
    readonly target: Target,
    readonly model: Target,
    readonly keys: Keys,
    readonly modelKeys: Keys,
    readonly runId: string,
    readonly sequence: number,
    readonly coverage: Coverage,
  ) {
    this.run = new RunData(target, runId);
  }

  /** A word planted in content, unique to this sequence of this run. */
  word(index: number): string {
    return `zq${this.runId}s${this.sequence}w${index % WORDS}`;
  }

  async step(step: Step): Promise<void> {
    this.stepNumber += 1;
    switch (step.kind) {
      case 'createCollection':
        return this.createCollection(step.key, step.metadata);
      case 'getCollection':
        return this.getCollection(step.ref, step.key);
      case 'deleteCollection':
        return this.deleteCollection(step.ref, step.key);
      case 'createObject':
        return createObject(this, step.ref, step.key, step.word, step.content);
      case 'createObjects':
        return createObjects(this, step.ref, step.count, step.word);
      case 'getObject':
        return getObject(this, step.ref, step.key);
      case 'search':
        return this.settled(() => search(this, step.word, step.scoped, step.key));
      case 'walk':
        return this.settled(() => walk(this, step.pageSize, step.key));
      case 'updateCollection':
        return updateCollection(this, step.ref, step.key, step.metadata);
      case 'replaceObject':
        return replaceObject(this, step.ref, step.key, step.word, step.content);
      case 'deleteObject':
        return deleteObject(this, step.ref, step.key);
      case 'walkWhileWriting':
        return walkWhileWriting(this, step.pageSize, step.key, step.writes);
      case 'walkAcrossKeys':
        return walkAcrossKeys(this, step.pageSize, step.first, step.then);
    }
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
    key: KeyName,
    options: {
      params?: (side: 'target' | 'model') => Record<string, unknown>;
      body?: (side: 'target' | 'model') => NonNullable<Parameters<Target['send']>[1]>['body'];
    } = {},
  ): Promise<[Sent, Sent]> {
    this.coverage.count(this.coverage.operations, operation);
    this.requests += 2;
    return Promise.all([
      this.target.send(operation, {
        key: this.keys[key],
        params: options.params?.('target'),
        body: options.body?.('target'),
      }),
      this.model.send(operation, {
        key: this.modelKeys[key],
        params: options.params?.('model'),
        body: options.body?.('model'),
      }),
    ]);
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
    clause: string,
    model: Sent,
    target: Sent,
    record: StepRecord,
    why: 'gone' | 'notYours' = 'gone',
  ): void {
    this.coverage.count(this.coverage.clauses, clause);
    const t = target.status;
    const m = model.status;
    const agrees =
      ok(m) === ok(t) &&
      (ok(m) ||
        (m === 404 &&
          (why === 'gone'
            ? this.target.isGone(t)
            : this.target.isNotYours(t) || this.target.isGone(t))) ||
        ((m === 401 || m === 403) && (t === 401 || t === 403)) ||
        (m !== 404 && m !== 401 && m !== 403 && Math.floor(m / 100) === Math.floor(t / 100)));
    if (!agrees) {
      const statuses = this.target.statuses;
      const absent = why === 'gone' ? statuses.gone : [...statuses.notYours, ...statuses.gone];
      const counted =
        m === 404
          ? ` (its description counts ${absent.join(' or ')} as ${why === 'gone' ? 'gone' : 'not yours'})`
          : '';
      throw new Divergence(clause, `the model answered ${m}, the target ${t}${counted}`, record);
    }
  }

  collection(ref: number): CollectionPair | undefined {
    const list = this.collections;
    return list.length === 0 ? undefined : list[ref % list.length];
  }

  async createCollection(key: KeyName, metadata: Record<string, unknown>): Promise<void> {
    this.#names += 1;
    const name = `answers-contract-${this.runId}-x${this.sequence}-${this.#names}`;
    const [target, model] = await this.both('createCollection', key, {
      body: () => ({ name, metadata }),
    });
    const targetId = ok(target.status)
      ? this.target.collectionIdOf(this.target.collectionIn(target.json))
      : undefined;
    if (targetId) this.run.track(targetId, this.keys[key]);
    const record = this.record(`create collection ${name} (key ${key})`, model, target);
    this.agree('COLL-1', model, target, record);
    if (!ok(model.status)) return;
    const modelId = this.model.collectionIdOf(this.model.collectionIn(model.json))!;
    if (!targetId) throw new Divergence('COLL-1', 'the created collection has no id', record);
    this.collections.push({
      target: targetId,
      model: modelId,
      key,
      deleted: false,
      merged: metadata,
    });
  }

  /** Whose a collection is, for the key presenting itself: the other account's or its own. */
  why(pair: Pair, key: KeyName): 'gone' | 'notYours' {
    const account = (k: KeyName) => (k === 'otherAccount' ? 'other' : 'own');
    return account(pair.key) === account(key) ? 'gone' : 'notYours';
  }

  async getCollection(ref: number, key: KeyName): Promise<void> {
    const pair = this.collection(ref);
    if (!pair) return;
    const [target, model] = await this.both('getCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = this.record(
      `get collection #${this.collections.indexOf(pair) + 1} (key ${key})`,
      model,
      target,
    );
    this.agree(pair.deleted ? 'DEL-1' : 'COLL-GET-1', model, target, record, this.why(pair, key));
    if (!ok(model.status)) return;
    const t = this.target.collectionIn(target.json);
    const m = this.model.collectionIn(model.json);
    // @note An update's metadata replaces (the model) or merges into (some targets) what was
    // there: the spec states no update, so either is the target's own choice.
    const metadata = this.target.metadataOf(t);
    const merged = JSON.stringify(canonical(pair.merged)) === JSON.stringify(canonical(metadata));
    this.same('COLL-3', 'metadata', merged ? metadata : this.model.metadataOf(m), metadata, record);
    this.same(
      'COLL-2',
      'object count',
      this.model.objectCountOf(m),
      this.target.objectCountOf(t),
      record,
    );
  }

  same(clause: string, what: string, model: unknown, target: unknown, record: StepRecord): void {
    this.coverage.count(this.coverage.clauses, clause);
    if (JSON.stringify(canonical(model)) !== JSON.stringify(canonical(target)))
      throw new Divergence(
        clause,
        `${what}: the model has ${short(model)}, the target ${short(target)}`,
        record,
      );
  }

  async deleteCollection(ref: number, key: KeyName): Promise<void> {
    const pair = this.collection(ref);
    if (!pair) return;
    const [target, model] = await this.both('deleteCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = this.record(
      `delete collection #${this.collections.indexOf(pair) + 1} (key ${key})`,
      model,
      target,
    );
    this.agree('DEL-1', model, target, record, this.why(pair, key));
    if (!ok(model.status)) return;
    pair.deleted = true;
    // Read back at once: the collection is gone, and so is an object it held.
    await this.getCollection(ref, pair.key);
    const held = this.objects.findIndex((object) => object.collection === pair);
    if (held >= 0) await getObject(this, held, pair.key);
  }
}

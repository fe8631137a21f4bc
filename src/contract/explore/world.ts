/**
 * One sequence of `explore`: each step sent to the target, through its description, and to the
 * model (the kit's mock, through the kit's own description), then compared on what the spec
 * states and the description maps. Ids are mapped as resources are created; the target's own
 * data, ids, timestamps, scores and ranking are never compared.
 */
import type { ContractResponse } from '../client.ts';
import { RunData } from '../target/run-data.ts';
import type { Target } from '../target/target.ts';
import { WORDS, type KeyName, type Step } from './steps.ts';

/** What one step did on both sides, as a story prints it. */
export interface StepRecord {
  request: string;
  model: string;
  target: string;
}

/** A step whose answers disagree on something the spec states. */
export class Divergence extends Error {
  override name = 'Divergence';
  constructor(
    readonly clause: string,
    readonly detail: string,
    readonly step: StepRecord,
  ) {
    super(`${clause}: ${detail}`);
  }
}

/** A resource created on both sides. */
interface Pair {
  target: string;
  model: string;
  key: KeyName;
}

interface CollectionPair extends Pair {
  deleted: boolean;
}

interface ObjectPair extends Pair {
  collection: CollectionPair;
  word: number;
  /** The content as sent. */
  content: unknown;
}

type Sent = ContractResponse & { method: string; path: string };

/** The keys a run was given, by name. */
export type Keys = Partial<Record<KeyName, string>> & { full: string };

/** Counts of what the exploration reached: operations, clauses, statuses. */
export class Coverage {
  readonly operations = new Map<string, number>();
  readonly clauses = new Map<string, number>();
  readonly statuses = new Map<number, number>();

  count(map: Map<string | number, number>, what: string | number): void {
    map.set(what, (map.get(what) ?? 0) + 1);
  }
}

const ok = (status: number) => status >= 200 && status < 300;
const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
};

export class World {
  readonly records: StepRecord[] = [];
  readonly #collections: CollectionPair[] = [];
  readonly #objects: ObjectPair[] = [];
  readonly run: RunData;
  #sequence = 0;
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
    this.#sequence += 1;
    switch (step.kind) {
      case 'createCollection':
        return this.#createCollection(step.key, step.metadata);
      case 'getCollection':
        return this.#getCollection(step.ref, step.key);
      case 'deleteCollection':
        return this.#deleteCollection(step.ref, step.key);
      case 'createObject':
        return this.#createObject(step.ref, step.key, step.word, step.content);
      case 'createObjects':
        return this.#createObjects(step.ref, step.count, step.word);
      case 'getObject':
        return this.#getObject(step.ref, step.key);
      case 'search':
        return this.#settled(() => this.#search(step.word, step.scoped, step.key));
      case 'walk':
        return this.#settled(() => this.#walk(step.pageSize, step.key));
    }
  }

  /** A read after writes, asked again while it diverges, for `--settle` at most. */
  async #settled(read: () => Promise<void>): Promise<void> {
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
  async #both(
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

  #record(request: string, model: Sent, target: Sent, extra = ''): StepRecord {
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
  #agree(
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

  #collection(ref: number): CollectionPair | undefined {
    const list = this.#collections;
    return list.length === 0 ? undefined : list[ref % list.length];
  }

  async #createCollection(key: KeyName, metadata: Record<string, unknown>): Promise<void> {
    const name = `answers-contract-${this.runId}-x${this.sequence}-${this.#sequence}`;
    const [target, model] = await this.#both('createCollection', key, {
      body: () => ({ name, metadata }),
    });
    const targetId = ok(target.status)
      ? this.target.collectionIdOf(this.target.collectionIn(target.json))
      : undefined;
    if (targetId) this.run.track(targetId, this.keys[key]);
    const record = this.#record(`create collection ${name} (key ${key})`, model, target);
    this.#agree('COLL-1', model, target, record);
    if (!ok(model.status)) return;
    const modelId = this.model.collectionIdOf(this.model.collectionIn(model.json))!;
    if (!targetId) throw new Divergence('COLL-1', 'the created collection has no id', record);
    this.#collections.push({ target: targetId, model: modelId, key, deleted: false });
  }

  /** Whose a collection is, for the key presenting itself: the other account's or its own. */
  #why(pair: Pair, key: KeyName): 'gone' | 'notYours' {
    const account = (k: KeyName) => (k === 'otherAccount' ? 'other' : 'own');
    return account(pair.key) === account(key) ? 'gone' : 'notYours';
  }

  async #getCollection(ref: number, key: KeyName): Promise<void> {
    const pair = this.#collection(ref);
    if (!pair) return;
    const [target, model] = await this.#both('getCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = this.#record(
      `get collection #${this.#collections.indexOf(pair) + 1} (key ${key})`,
      model,
      target,
    );
    this.#agree(pair.deleted ? 'DEL-1' : 'COLL-GET-1', model, target, record, this.#why(pair, key));
    if (!ok(model.status)) return;
    const t = this.target.collectionIn(target.json);
    const m = this.model.collectionIn(model.json);
    this.#same('COLL-3', 'metadata', this.model.metadataOf(m), this.target.metadataOf(t), record);
    this.#same(
      'COLL-2',
      'object count',
      this.model.objectCountOf(m),
      this.target.objectCountOf(t),
      record,
    );
  }

  #same(clause: string, what: string, model: unknown, target: unknown, record: StepRecord): void {
    this.coverage.count(this.coverage.clauses, clause);
    if (JSON.stringify(canonical(model)) !== JSON.stringify(canonical(target)))
      throw new Divergence(
        clause,
        `${what}: the model has ${short(model)}, the target ${short(target)}`,
        record,
      );
  }

  async #deleteCollection(ref: number, key: KeyName): Promise<void> {
    const pair = this.#collection(ref);
    if (!pair) return;
    const [target, model] = await this.#both('deleteCollection', key, {
      params: (side) => ({ collection_id: pair[side] }),
    });
    const record = this.#record(
      `delete collection #${this.#collections.indexOf(pair) + 1} (key ${key})`,
      model,
      target,
    );
    this.#agree('DEL-1', model, target, record, this.#why(pair, key));
    if (ok(model.status)) pair.deleted = true;
  }

  async #createObject(ref: number, key: KeyName, word: number, content: unknown): Promise<void> {
    const pair = this.#collection(ref);
    if (!pair) return;
    const planted = {
      ...(content as object),
      text: `${(content as { text: string }).text} ${this.word(word)}`,
    };
    await this.#oneObject(
      pair,
      key,
      word,
      planted,
      `create an object in collection #${this.#collections.indexOf(pair) + 1} (key ${key}, word ${word % WORDS})`,
    );
  }

  /**
   * Creates one object on both sides; `batch` records a batch's requests as one step (the
   * record is made by the caller, once every request of it is answered).
   */
  async #oneObject(
    pair: CollectionPair,
    key: KeyName,
    word: number,
    content: unknown,
    request: string,
    batch?: { statuses: Array<[number, number]> },
  ): Promise<void> {
    const [target, model] = await this.#both('createObject', key, {
      params: (side) => ({ collection_id: pair[side] }),
      body: () => ({ content: content as object }),
    });
    let record: StepRecord;
    if (batch) {
      batch.statuses.push([model.status, target.status]);
      record = { request, model: String(model.status), target: String(target.status) };
    } else {
      record = this.#record(request, model, target);
    }
    this.#agree(pair.deleted ? 'DEL-2' : 'OBJ-1', model, target, record, this.#why(pair, key));
    if (!ok(model.status)) return;
    const t = this.target.objectIn(target.json);
    const targetId = this.target.objectIdOf(t);
    const modelId = this.model.objectIdOf(this.model.objectIn(model.json))!;
    if (!targetId) throw new Divergence('OBJ-2', 'the created object has no id', record);
    this.#objects.push({
      target: targetId,
      model: modelId,
      key,
      collection: pair,
      word: word % WORDS,
      content,
    });
  }

  async #createObjects(ref: number, count: number, word: number): Promise<void> {
    const pair = this.#collection(ref);
    if (!pair) return;
    const key = pair.key;
    const request = `create ${count} objects at once in collection #${this.#collections.indexOf(pair) + 1} (key ${key}, word ${word % WORDS})`;
    const batch = { statuses: [] as Array<[number, number]> };
    const tally = (side: 0 | 1) => {
      const counts = new Map<number, number>();
      for (const statuses of batch.statuses)
        counts.set(statuses[side], (counts.get(statuses[side]) ?? 0) + 1);
      return [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
    };
    // @note Sent at once: the end state must be that of some serial order (every object there).
    try {
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          this.#oneObject(
            pair,
            key,
            word,
            { text: `batch ${i} ${this.word(word)}` },
            request,
            batch,
          ),
        ),
      );
    } finally {
      this.records.push({ request, model: tally(0), target: tally(1) });
      for (const [, status] of batch.statuses) this.coverage.count(this.coverage.statuses, status);
    }
  }

  async #getObject(ref: number, key: KeyName): Promise<void> {
    const list = this.#objects;
    if (list.length === 0) return;
    const pair = list[ref % list.length]!;
    const [target, model] = await this.#both('getObject', key, {
      params: (side) => ({ collection_id: pair.collection[side], object_id: pair[side] }),
    });
    const record = this.#record(
      `get object #${list.indexOf(pair) + 1} (key ${key})`,
      model,
      target,
    );
    this.#agree(
      pair.collection.deleted ? 'DEL-2' : 'OBJ-GET-1',
      model,
      target,
      record,
      this.#why(pair, key),
    );
    if (!ok(model.status)) return;
    const t = this.target.objectIn(target.json);
    const missing = this.target.missingSystemFields(t);
    this.coverage.count(this.coverage.clauses, 'OBJ-3');
    if (missing.length > 0)
      throw new Divergence('OBJ-3', `the object lacks ${missing.join(', ')}`, record);
    this.coverage.count(this.coverage.clauses, 'OBJ-GET-1');
    if (!holdsContent(t, pair.content))
      throw new Divergence(
        'OBJ-GET-1',
        `the content sent (${short(pair.content)}) is not what came back`,
        record,
      );
  }

  async #search(word: number, scoped: number | null, key: KeyName): Promise<void> {
    const scope = scoped === null ? undefined : this.#collection(scoped);
    const query = this.word(word);
    const [target, model] = await this.#both('search', key, {
      body: (side) => ({ query, ...(scope ? { collection_ids: [scope[side]] } : {}) }),
    });
    const where = scope ? ` in collection #${this.#collections.indexOf(scope) + 1}` : '';
    const record = this.#record(`search "${query}"${where} (key ${key})`, model, target);
    // @note The spec states no answer to a search scoped to a collection the caller cannot see
    // (deleted, or another account's): the model's 404 is our document's; a target may as well
    // answer 2xx, as long as it finds nothing there.
    const hidden = scope !== undefined && model.status === 404;
    if (!(hidden && ok(target.status))) this.#agree('SEARCH-1', model, target, record);
    if (!ok(target.status)) return;
    const ids = new Set(
      (this.target.hitsOf(target.json) ?? []).map((hit) => this.target.hitObjectIdOf(hit)),
    );
    const found = this.#objects
      .filter((pair) => ids.has(pair.target))
      .map((pair) => this.#objects.indexOf(pair) + 1);
    // What the search may find of the run's objects: those with the word, not deleted, the
    // caller's, in the scope; the model's answer says the same of its own objects.
    const account = (k: KeyName) => (k === 'otherAccount' ? 'other' : 'own');
    const expected = hidden
      ? []
      : this.#objects
          .filter(
            (pair) =>
              pair.word === word % WORDS &&
              !pair.collection.deleted &&
              account(pair.key) === account(key) &&
              (scope === undefined || pair.collection === scope),
          )
          .map((pair) => this.#objects.indexOf(pair) + 1);
    const strays = found.filter((n) => !expected.includes(n));
    this.coverage.count(this.coverage.clauses, 'SEARCH-1');
    if (strays.length > 0)
      throw new Divergence(
        hidden || strays.some((n) => account(this.#objects[n - 1]!.key) !== account(key))
          ? 'ISO-1'
          : 'DEL-2',
        `the search found objects #${strays.join(', #')}, which it must not (deleted, another account's, or outside the scope)`,
        record,
      );
    // @note Pages differ in size from one target to another: every object is expected only
    // when there are few enough for the smallest first page a target is likely to have.
    if (expected.length <= 5 && found.length < expected.length)
      throw new Divergence(
        'SEARCH-1',
        `the search found objects ${JSON.stringify(found)} of the run's ${JSON.stringify(expected)} with the word`,
        record,
      );
  }

  async #walk(pageSize: number, key: KeyName): Promise<void> {
    if (key === 'inactive') {
      const [target, model] = await this.#both('listCollections', key);
      const record = this.#record(`list collections (key inactive)`, model, target);
      return this.#agree('ERR-401-2', model, target, record);
    }
    this.coverage.count(this.coverage.operations, 'listCollections');
    const [targetItems, modelItems] = await Promise.all([
      this.target.walk({ key: this.keys[key], pageSize }),
      this.model.walk({ key: this.modelKeys[key], pageSize }),
    ]);
    this.requests += 2;
    const ours = (side: Target, items: unknown[], which: 'target' | 'model') => {
      const index = new Map(this.#collections.map((pair, i) => [pair[which], i + 1]));
      return items
        .map((item) => index.get(side.collectionIdOf(item) ?? ''))
        .filter((n) => n !== undefined);
    };
    const record: StepRecord = {
      request: `walk the list of collections, pages of ${pageSize} (key ${key})`,
      model: `collections ${short(ours(this.model, modelItems.items, 'model'))}`,
      target: `collections ${short(ours(this.target, targetItems.items, 'target'))}${targetItems.partial ? ` (${targetItems.partial})` : ''}`,
    };
    this.records.push(record);
    if (targetItems.partial) return;
    // @note The spec states creation order, not its direction (GAP-SORT-DIRECTION): the
    // target's order is the model's, or the model's reversed.
    const expected = ours(this.model, modelItems.items, 'model');
    const seen = ours(this.target, targetItems.items, 'target');
    const reversed = [...expected].reverse();
    this.#same(
      'COLL-LIST-3',
      "the run's collections, in order",
      JSON.stringify(seen) === JSON.stringify(reversed) ? reversed : expected,
      seen,
      record,
    );
  }
}

/**
 * Whether an object as a target answers it holds the content as sent: whole under one field
 * (`content` in our document, `body` or `data` elsewhere: descriptions do not name it), or as the
 * object's own fields (a target that keeps user data beside the system fields).
 */
function holdsContent(object: unknown, content: unknown): boolean {
  const same = (a: unknown, b: unknown) =>
    JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  if (!object || typeof object !== 'object') return false;
  const record = object as Record<string, unknown>;
  if (Object.values(record).some((value) => same(value, content))) return true;
  return Object.entries(content as Record<string, unknown>).every(([k, v]) => same(record[k], v));
}

/** A JSON value with object keys sorted, for comparing what was sent with what came back. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

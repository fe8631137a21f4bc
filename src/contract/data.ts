import type { ContractClient } from './client.ts';
import { CheckFailure, ensure, type Skip } from './failure.ts';

/** A collection the suite can use, with some of its objects and a word found in them. */
export interface DataSet {
  collection: any;
  objects: any[];
  /** A word that occurs in the content of `objects[0]`. */
  word: string;
}

/** The array of items in a list response: the body itself, or its `data` (or first array) member. */
export function itemsOf(body: unknown): any[] | undefined {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (Array.isArray(record.data)) return record.data;
    return Object.values(record).find(Array.isArray) as any[] | undefined;
  }
  return undefined;
}

/** Every word (letters and digits) of the string values of a JSON value. */
export function wordsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (Array.isArray(value)) return value.flatMap(wordsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(wordsOf);
  return [];
}

/**
 * The data the checks share. With `--destructive` the suite creates what it needs, names it
 * `answers-contract-<run id>-…` so a person can recognise it, and deletes exactly that at the end,
 * also after failures. Without it, the suite only reads what it finds.
 */
export class ContractData {
  readonly #created = new Set<string>();
  #sequence = 0;
  #main: Promise<DataSet> | undefined;

  constructor(
    readonly http: ContractClient,
    readonly runId: string,
    readonly destructive: boolean,
  ) {}

  /** A word that occurs nowhere but in data this run created. */
  get uniqueWord(): string {
    return `zq${this.runId}`;
  }

  /** Walks `GET /collections` (profile parameter names) and returns every item. */
  async walkCollections(key?: string, limit = 100, order?: 'asc' | 'desc'): Promise<any[]> {
    return this.walk('/collections', 'listCollections', key, limit, order);
  }

  /** Walks a list operation page by page; fails on a repeated cursor or more than 1,000 pages. */
  async walk(
    path: string,
    operationId: string,
    key?: string,
    limit = 100,
    order?: 'asc' | 'desc',
  ): Promise<any[]> {
    const items: any[] = [];
    const seen = new Set<string>();
    let cursor: string | null | undefined;
    for (let page = 0; page < 1_000; page++) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (order) query.set('order', order);
      if (cursor) query.set('cursor', cursor);
      const response = await this.http.request('GET', `${path}?${query}`, { key, operationId });
      ensure(
        response.status === 200,
        `GET ${path} (page ${page + 1}) answered ${response.status}, not 200`,
      );
      items.push(...response.json.data);
      cursor = response.json.next_cursor;
      if (!cursor) return items;
      ensure(
        !seen.has(cursor),
        `GET ${path} returned the same next_cursor twice: the walk would never end`,
      );
      seen.add(cursor);
    }
    throw new Error(`GET ${path} did not end after 1,000 pages`);
  }

  /** Creates a collection named for this run, with objects whose content holds `words`. */
  async createCollection(suffix: string, contents: object[] = []): Promise<DataSet> {
    ensure(this.destructive, 'creating data needs --destructive');
    const created = await this.http.request('POST', '/collections', {
      operationId: 'createCollection',
      body: {
        name: `answers-contract-${this.runId}-${++this.#sequence}-${suffix}`,
        metadata: { created_by: 'answers-contract', run_id: this.runId },
      },
    });
    ensure(
      created.status === 201,
      `POST /collections answered ${created.status}, not 201: ${created.text.slice(0, 200)}`,
    );
    this.#created.add(created.json.id);
    const objects: any[] = [];
    for (const content of contents) {
      const object = await this.http.request('POST', `/collections/${created.json.id}/objects`, {
        operationId: 'createObject',
        body: { content },
      });
      ensure(
        object.status === 201,
        `POST .../objects answered ${object.status}, not 201: ${object.text.slice(0, 200)}`,
      );
      objects.push(object.json);
    }
    return {
      collection: created.json,
      objects,
      word: wordsOf(contents[0] ?? {})[0] ?? this.uniqueWord,
    };
  }

  /**
   * The shared data set: created once per run (destructive), or the first non-empty collection
   * found (read-only; skips the check when there is none).
   */
  async main(context: { skip: Skip }): Promise<DataSet> {
    this.#main ??= this.destructive
      ? this.createCollection('main', [
          { title: `${this.uniqueWord} first`, body: 'The first object of the contract run.' },
          { title: `${this.uniqueWord} second`, tags: ['contract'] },
          { title: 'third without the run word', body: 'nothing to find here' },
        ])
      : this.discover();
    // @note Only "nothing to read" is a skip; a target that breaks while the data is made fails.
    return this.#main.catch((error: Error) => {
      if (error instanceof CheckFailure)
        throw new CheckFailure(`preparing the shared data: ${error.message}`);
      return context.skip(error.message);
    });
  }

  /** The first collection with objects that have a word of four letters or more. */
  async discover(): Promise<DataSet> {
    for (const collection of await this.walkCollections()) {
      if (!(collection.object_count > 0)) continue;
      const page = await this.http.request(
        'GET',
        `/collections/${collection.id}/objects?limit=10`,
        { operationId: 'listObjects' },
      );
      const objects = page.json?.data ?? [];
      const word =
        objects.length > 0 ? wordsOf(objects[0].content).find((w) => w.length >= 4) : undefined;
      if (word) return { collection, objects, word };
    }
    throw new Error(
      'the target has no collection with objects to read; run with --destructive to create some',
    );
  }

  /** Remembers a collection a check created itself, so cleanup deletes it. */
  track(collectionId: string): void {
    this.#created.add(collectionId);
  }

  /** Forgets a collection a check deleted itself. */
  untrack(collectionId: string): void {
    this.#created.delete(collectionId);
  }

  /** Deletes every collection this run created and did not delete; returns what it could not. */
  async cleanup(): Promise<string[]> {
    const left: string[] = [];
    for (const id of this.#created) {
      try {
        const response = await this.http.request('DELETE', `/collections/${id}`);
        if (response.status >= 300 && response.status !== 404)
          left.push(`${id} (${response.status})`);
      } catch (error) {
        left.push(`${id} (${(error as Error).message})`);
      }
    }
    this.#created.clear();
    return left;
  }
}

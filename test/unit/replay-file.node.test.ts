/**
 * What `replay` reads: a recording or a HAR 1.2 file, or one clear line (exit 2 in the command)
 * for anything else: truncated, oversized (refused by its size, before a byte is read), too deep,
 * too many exchanges, or not a recording at all. A HAR's credentials go no further than reading.
 */
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_REPLAY_EXCHANGES,
  MAX_REPLAY_FILE_BYTES,
  readReplayFile,
  ReplayFileError,
} from '../../src/contract/replay/read-file.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-file-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const KEYS: Record<string, 'full' | 'readonly'> = { k_full_1: 'full', k_read_1: 'readonly' };
const reading = {
  description: DEFAULT_DESCRIPTION,
  roleOf: (key: string) => KEYS[key] ?? 'unknown',
} as const;

async function read(name: string, text: string) {
  const file = join(dir, name);
  await writeFile(file, text);
  return readReplayFile(file, reading);
}

const exchange = (extra: Record<string, unknown> = {}) => ({
  operation: 'listCollections',
  method: 'GET',
  path: '/api/answers/v1/collections',
  query: '',
  key: 'full',
  status: 200,
  ...extra,
});
const recording = (exchanges: unknown[]) =>
  JSON.stringify({ format: 'answers-recording/1', sequences: [{ name: 'a test', exchanges }] });

describe('a file replay cannot read', () => {
  it.each([
    ['truncated', recording([exchange()]).slice(0, 40), /is not JSON \(a truncated file\?\)/],
    [
      'of another format',
      '{"format":"answers-recording/9","sequences":[]}',
      /format answers-recording\/9; this replay reads answers-recording\/1/,
    ],
    ['without sequences', '{"format":"answers-recording/1"}', /sequences is not a list/],
    [
      'a sequence without a name',
      '{"format":"answers-recording/1","sequences":[{"exchanges":[]}]}',
      /sequences\[0\]\.name is not a name/,
    ],
    [
      'an exchange with a key value for a role',
      recording([exchange({ key: 'k_full_1' })]),
      /exchanges\[0\]\.key is not one of full, readonly/,
    ],
    [
      'an exchange with no status',
      recording([exchange({ status: 'ok' })]),
      /exchanges\[0\]\.status is not an HTTP status/,
    ],
    [
      'a body nested too deep',
      recording([exchange({ body: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) })]),
      /nests deeper than 64 levels/,
    ],
    ['a bare list', '[1,2,3]', /neither a recording \(answers-recording\/1\) nor a HAR file/],
    ['a HAR without entries', '{"log":{"version":"1.2"}}', /log\.entries is not a list/],
    [
      'a HAR entry without a URL',
      '{"log":{"entries":[{"request":{"method":"GET"},"response":{"status":200}}]}}',
      /log\.entries\[0\]\.request has no method or url/,
    ],
  ])('%s: one line', async (name, text, message) => {
    const error = await read(`${name}.json`, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('a JSON text nested 100,000 deep: refused, the parser and the checks never overflow', async () => {
    const deep = `{"format":"answers-recording/1","sequences":[{"name":"t","exchanges":[${JSON.stringify(exchange()).slice(0, -1)},"response":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}]}`;
    const error = await read('deep.json', deep).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayFileError);
  });

  // @note Reading a HAR stringifies each exchange (to replace a key echoed in it): a body nested
  // 100,000 deep overflowed the stack there, an "internal error" instead of this line.
  const deepText = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const harWith = (request: object, response: object) =>
    JSON.stringify({
      log: {
        entries: [
          {
            request: {
              url: 'http://127.0.0.1:4010/api/answers/v1/collections',
              headers: [{ name: 'authorization', value: 'Bearer k_full_1' }],
              ...request,
            },
            response: {
              status: 200,
              content: { mimeType: 'application/json', text: '{}' },
              ...response,
            },
          },
        ],
      },
    });
  it.each([
    [
      'a HAR request body nested 100,000 deep',
      harWith({ method: 'POST', postData: { mimeType: 'application/json', text: deepText } }, {}),
      /log\.entries\[0\]\.request\.postData\.text nests deeper than 64 levels/,
    ],
    [
      'a HAR answer nested 100,000 deep',
      harWith({ method: 'GET' }, { content: { mimeType: 'application/json', text: deepText } }),
      /log\.entries\[0\]\.response\.content\.text nests deeper than 64 levels/,
    ],
  ])(
    '%s: refused in one line naming the depth, never a stack overflow',
    async (name, text, message) => {
      const error = await read(`${name}.har`, text).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReplayFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    },
  );

  it('past the largest size: refused by its size, before it is read', async () => {
    const file = join(dir, 'huge.json');
    await writeFile(file, '');
    await truncate(file, MAX_REPLAY_FILE_BYTES + 1); // sparse: no memory, no disk
    const before = process.memoryUsage().rss;
    const error = await readReplayFile(file, reading).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /is 67108865 bytes; replay reads files of at most 67108864 bytes/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(MAX_REPLAY_FILE_BYTES / 2);
  });

  it('more exchanges than a run takes: refused', async () => {
    const many = Array.from({ length: MAX_REPLAY_EXCHANGES + 1 }, () => exchange());
    await expect(read('many.json', recording(many))).rejects.toThrow(/past 100000 exchanges/);
  });

  it('a folder, or a file that is not there', async () => {
    await expect(readReplayFile(dir, reading)).rejects.toThrow(/is not a file/);
    await expect(readReplayFile(join(dir, 'absent.json'), reading)).rejects.toThrow(
      /cannot read .*ENOENT/,
    );
  });
});

describe('a recording of the lines form (answers-mock --record)', () => {
  const HEADER = '{"format":"answers-recording-lines/1"}';
  const line = (sequence: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ sequence, exchange: exchange(extra) });
  const lines = (...each: string[]) => `${[HEADER, ...each].join('\n')}\n`;

  it('is a sequence per name, in the order each first appears, each exchange in its order', async () => {
    const read_ = await read(
      'lines.jsonl',
      lines(line('first', { status: 200 }), line('second'), line('first', { status: 401 })),
    );
    expect(read_.format).toBe('answers-recording/1');
    expect(read_.sequences.map((s) => [s.name, s.exchanges.map((e) => e.status)])).toEqual([
      ['first', [200, 401]],
      ['second', [200]],
    ]);
    expect((await read('header-only.jsonl', `${HEADER}\n`)).sequences).toEqual([]);
    expect((await read('header-no-newline.jsonl', HEADER)).sequences).toEqual([]);
  });

  it('leaves out a last line a killed mock left half-written (never answered)', async () => {
    const torn = `${lines(line('t'))}${line('t').slice(0, 30)}`;
    const read_ = await read('torn.jsonl', torn);
    expect(read_.sequences[0]!.exchanges).toHaveLength(1);
  });

  it.each([
    ['a line that is not JSON', lines(line('t'), '{"sequence":', line('t')), /line 3 is not JSON/],
    [
      'a line without its sequence',
      lines(JSON.stringify({ exchange: exchange() })),
      /line 2\.sequence is not a name/,
    ],
    [
      'an exchange with a key value',
      lines(line('t', { key: 'k_full_1' })),
      /line 2\.exchange\.key is not one of/,
    ],
    [
      'a body nested too deep',
      lines(line('t', { body: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) })),
      /line 2\.exchange nests deeper than 64 levels/,
    ],
    [
      'a line nested 100,000 deep',
      lines(`${line('t').slice(0, -2)},"response":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`),
      /line 2/,
    ],
  ])('%s: refused, one line', async (name, text, message) => {
    const error = await read(`${name}.jsonl`, text).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('more exchanges than a run takes: refused', async () => {
    const one = line('t');
    const text = lines(...Array.from({ length: MAX_REPLAY_EXCHANGES + 1 }, () => one));
    await expect(read('many.jsonl', text)).rejects.toThrow(
      /line 100002 brings it past 100000 exchanges/,
    );
  });
});

describe('a HAR file', () => {
  const entry = (
    method: string,
    url: string,
    status: number,
    extra: Record<string, unknown> = {},
  ) => ({
    pageref: 'page_1',
    request: {
      method,
      url,
      headers: [
        { name: 'Authorization', value: 'Bearer k_full_1' },
        { name: 'Cookie', value: 'session=s3cr3t' },
      ],
      cookies: [{ name: 'session', value: 's3cr3t' }],
      ...extra,
    },
    response: {
      status,
      headers: [{ name: 'Set-Cookie', value: 'session=s3cr3t' }],
      content: {
        mimeType: 'application/json',
        text: '{"data":[],"has_more":false,"next_cursor":null}',
      },
    },
  });
  const har = (entries: unknown[]) =>
    JSON.stringify({
      log: { version: '1.2', pages: [{ id: 'page_1', title: 'Collections page' }], entries },
    });

  it('is a sequence per page of the API exchanges, keys by role, credentials and cookies dropped', async () => {
    const read1 = await read(
      'app.har',
      har([
        entry('GET', 'https://answers.example.com/api/answers/v1/collections?limit=10', 200),
        entry('GET', 'https://answers.example.com/assets/app.js', 200),
        entry('POST', 'https://answers.example.com/api/answers/v1/collections', 201, {
          postData: { mimeType: 'application/json', text: '{"name":"x k_full_1","metadata":{}}' },
        }),
        entry('GET', 'https://answers.example.com/api/answers/v1/collections', 0),
      ]),
    );
    expect(read1.sequences.map((s) => s.name)).toEqual(['app.har > Collections page']);
    const [list, create] = read1.sequences[0]!.exchanges;
    expect(read1.sequences[0]!.exchanges).toHaveLength(2);
    expect(list).toMatchObject({
      operation: 'listCollections',
      path: '/api/answers/v1/collections',
      query: 'limit=10',
      key: 'full',
      status: 200,
    });
    expect(create).toMatchObject({
      operation: 'createCollection',
      body: { name: 'x <full key>' },
      status: 201,
    });
    const text = JSON.stringify(read1);
    for (const secret of ['k_full_1', 's3cr3t', 'Cookie', 'Authorization'])
      expect(text).not.toContain(secret);
  });

  it('keeps of a URL only the query parameters its operation takes: a secret in it goes no further', async () => {
    const read1 = await read(
      'signed.har',
      har([
        entry(
          'GET',
          'https://answers.example.com/api/answers/v1/collections?access_token=tok.SECRET&limit=10&sig=SIG0SECRET',
          200,
        ),
        entry('GET', 'https://answers.example.com/api/answers/v1/collections/c1?token=T0K', 200),
      ]),
    );
    const [list, get] = read1.sequences[0]!.exchanges;
    expect(list!.query).toBe('limit=10');
    expect(get!.query).toBe('');
    expect(JSON.stringify(read1)).not.toMatch(/SECRET|T0K/);
  });

  it('tells the reading each key a request presented, a value never to print', async () => {
    const presented: string[] = [];
    const file = join(dir, 'presented.har');
    await writeFile(
      file,
      har([entry('GET', 'https://answers.example.com/api/answers/v1/collections', 200)]),
    );
    await readReplayFile(file, { ...reading, presented: (key) => presented.push(key) });
    expect(presented).toEqual(['k_full_1']);
  });

  it('names a key no run key is `unknown`, and a request with none `none`', async () => {
    const [sequence] = (
      await read(
        'keys.har',
        har([
          {
            ...entry('GET', 'http://h/collections', 401),
            request: {
              method: 'GET',
              url: 'http://h/collections',
              headers: [{ name: 'x-answers-api-key', value: 'someone' }],
            },
          },
          {
            ...entry('GET', 'http://h/collections', 401),
            request: { method: 'GET', url: 'http://h/collections', headers: [] },
          },
        ]),
      )
    ).sequences;
    expect(sequence!.exchanges.map((e) => e.key)).toEqual(['unknown', 'none']);
  });
});

/**
 * The example web app (`examples/web-app`) in Chromium, as a user runs it: a Vite dev server,
 * and either the mock server (server mode) or the mock in the page behind msw (offline mode).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replay } from '../../src/contract/replay/replay.ts';
import { readReplayFile } from '../../src/contract/replay/read-file.ts';
import { DEFAULT_DESCRIPTION } from '../../src/contract/target-api/description.ts';
import { loadTargetFile } from '../../src/contract/target-api/load.ts';
import { keyRole } from '../../src/core/api-key.ts';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { DEV_KEYS } from '../../src/seed/dev-keys.ts';
import { startIndependentServer } from '../independent/server.ts';
import { TARGET } from '../independent/suite-runs.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { CHROMIUM_LAUNCH } from '../support/chromium.ts';
import { imageStats } from './image-stats.ts';
import {
  acme,
  countOf,
  deleted,
  faq,
  firstFaqObject,
  searchTotal,
  searchWord,
} from './seed-facts.ts';

const APP_ROOT = fileURLToPath(new URL('../../examples/web-app/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../screenshots/', import.meta.url));
const WAIT = { timeout: 15_000 };
const TIMEOUT = 60_000;

const sel = (testId: string) => `[data-testid="${testId}"]`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ headless: true, ...CHROMIUM_LAUNCH });
}, TIMEOUT);
afterAll(() => browser?.close());

describe.each(['server', 'offline'] as const)('the web app example, %s mode', (mode) => {
  let mock: AnswersMock;
  let api: RunningServer | undefined;
  let vite: ViteDevServer;
  let appUrl: string;
  let page: Page;
  let pageErrors: Error[];

  beforeAll(async () => {
    mock = await createMock();
    if (mode === 'server') api = await startServer({ mock, port: 0, quiet: true });
    vite = await createServer({
      root: APP_ROOT,
      configFile: `${APP_ROOT}vite.config.ts`,
      server: { port: 0, host: '127.0.0.1' },
      define: api
        ? { 'import.meta.env.VITE_ANSWERS_BASE_URL': JSON.stringify(`${api.url}/api/answers/v1`) }
        : {},
      logLevel: 'warn',
      clearScreen: false,
    });
    await vite.listen();
    const { port } = vite.httpServer!.address() as AddressInfo;
    // Offline mode by the URL; the env variable VITE_ANSWERS_MODE=offline does the same.
    appUrl = `http://127.0.0.1:${port}/?limit=5${mode === 'offline' ? '&mode=offline' : ''}`;
  }, TIMEOUT);
  afterAll(async () => {
    await vite?.close();
    await api?.close();
  });

  beforeEach(async () => {
    await mock.controls.reset();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error));
  });
  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  /** Loads the app and waits for the first page of collections. */
  async function open() {
    await page.goto(appUrl);
    await page.waitForSelector(`${sel('collection-list')}[data-page="1"]`, { timeout: 30_000 });
    expect(await page.textContent(sel('mode'))).toBe(mode);
    const origin = api?.url ?? new URL(appUrl).origin; // offline: the page's own origin
    expect(await page.textContent(sel('base-url'))).toBe(`${origin}/api/answers/v1`);
  }

  const listed = () =>
    page.$$eval(sel('collection-item'), (items) =>
      items.map((item) => [
        item.querySelector('[data-testid="collection-link"]')!.textContent,
        item.querySelector('[data-testid="collection-count"]')!.textContent,
      ]),
    );
  const expected = (collections: typeof acme) =>
    collections.map(({ id, name }) => [
      name,
      `${countOf(id)} object${countOf(id) === 1 ? '' : 's'}`,
    ]);

  async function openCollection(name: string) {
    await page.click(`${sel('collection-link')}:text-is("${name}")`);
    await page.waitForSelector(`${sel('collection-name')}:text-is("${name}")`, WAIT);
  }

  async function showsError(pattern: RegExp) {
    const error = await page.waitForSelector(`${sel('error')}:not([hidden])`, WAIT);
    expect(await error.textContent()).toMatch(pattern);
  }

  it(
    'lists the 6 acme collections with their object counts, 5 per page',
    async () => {
      await open();
      expect(acme).toHaveLength(6);
      expect(await listed()).toEqual(expected(acme.slice(0, 5)));
      expect(await page.isDisabled(sel('collections-prev'))).toBe(true);

      await page.click(sel('collections-next'));
      await page.waitForSelector(`${sel('collection-list')}[data-page="2"]`, WAIT);
      expect(await listed()).toEqual(expected(acme.slice(5)));
      expect(await page.isDisabled(sel('collections-next'))).toBe(true);

      await page.click(sel('collections-prev'));
      await page.waitForSelector(`${sel('collection-list')}[data-page="1"]`, WAIT);
      expect(await listed()).toEqual(expected(acme.slice(0, 5)));
    },
    TIMEOUT,
  );

  it(
    'opens a collection, its objects, and one object with its system fields',
    async () => {
      await open();
      await openCollection('Product FAQ');
      expect(await page.textContent(sel('collection-meta'))).toContain('24 objects');
      expect(await page.$$(sel('object-item'))).toHaveLength(10);

      await page.click(`${sel('object-item')}[data-id="${firstFaqObject.id}"] a`);
      const json = await page.waitForSelector(
        `${sel('object-json')}[data-id="${firstFaqObject.id}"]`,
        WAIT,
      );
      const { account_id: _account, ...served } = firstFaqObject;
      expect(JSON.parse((await json.textContent())!)).toEqual(served);
      expect(served).toMatchObject({ collection_id: faq.id, version: 1 });
      expect(served.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    },
    TIMEOUT,
  );

  it(
    'deletes a collection after a confirm dialog, and it stays gone',
    async () => {
      await open();
      await openCollection(deleted.name);
      const dialog = new Promise<string>((resolve) =>
        page.once('dialog', (d) => {
          resolve(`${d.type()}: ${d.message()}`);
          void d.accept();
        }),
      );
      await page.click(sel('delete-collection'));
      expect(await dialog).toMatch(/^confirm: Delete "Release notes" and its 12 objects\?/);
      await page.waitForSelector(`${sel('notice')}:text("Deleted")`, WAIT);
      await page.waitForSelector(`${sel('collection-item')}[data-id="${deleted.id}"]`, {
        state: 'detached',
        ...WAIT,
      });
      const remaining = acme.filter((collection) => collection !== deleted);
      expect(await listed()).toEqual(expected(remaining));
      expect(await page.isDisabled(sel('collections-next'))).toBe(true);

      // Fetching it again (its link, without a reload) answers 404.
      await page.evaluate((id) => (location.hash = `#/collections/${id}`), deleted.id);
      await showsError(/^404 Not Found: No collection with id "col_\w+" exists in this account\.$/);

      await page.reload();
      await page.waitForSelector(`${sel('collection-list')}[data-page="1"]`, WAIT);
      if (mode === 'server') {
        // The server keeps the state: a full reload does not bring it back.
        expect(mock.controls.export().collections.map((c) => c.id)).not.toContain(deleted.id);
        expect(await listed()).toEqual(expected(remaining));
        await showsError(/^404 Not Found/); // the hash still names the deleted collection
      } else {
        // Offline, the mock lives in the page: a reload starts a fresh mock from the seed.
        expect(await listed()).toEqual(expected(acme.slice(0, 5)));
        await page.waitForSelector(`${sel('collection-name')}:text-is("${deleted.name}")`, WAIT);
      }
    },
    TIMEOUT,
  );

  it(
    'searches the account with POST /search and shows hits with score and collection',
    async () => {
      expect(searchTotal).toBeGreaterThan(0);
      await open();
      await page.fill(sel('search-input'), searchWord);
      await page.press(sel('search-input'), 'Enter');
      await page.waitForSelector(sel('search-hit'), WAIT);
      expect(await page.textContent(sel('search-summary'))).toBe(
        `${searchTotal} hits for "${searchWord}" (showing ${Math.min(searchTotal, 10)})`,
      );
      const hits = await page.$$eval(sel('search-hit'), (items) =>
        items.map((item) => ({
          score: item.querySelector('[data-testid="hit-score"]')!.textContent,
          collection: item.querySelector('[data-testid="hit-collection"]')!.textContent,
        })),
      );
      expect(hits).toHaveLength(Math.min(searchTotal, 10));
      for (const hit of hits) {
        expect(hit.score).toMatch(/^score [1-9]\d*\.\d\d$/);
        expect(acme.map((collection) => collection.name)).toContain(hit.collection);
      }
    },
    TIMEOUT,
  );

  it(
    'shows "401 Unauthorized" for a bad key, remembers the key, and recovers',
    async () => {
      await open();
      await page.fill(sel('api-key'), 'answers_test_no_such_key');
      await page.click(sel('api-key-save'));
      await showsError(/^401 Unauthorized: The API key is not valid\.$/);
      expect(await page.$$(sel('collection-item'))).toHaveLength(0);

      await page.reload();
      await showsError(/^401 Unauthorized: /);
      expect(await page.inputValue(sel('api-key'))).toBe('answers_test_no_such_key');

      await page.fill(sel('api-key'), 'answers_test_full_acme');
      await page.click(sel('api-key-save'));
      await page.waitForSelector(`${sel('collection-list')}[data-page="1"]`, WAIT);
      expect(await page.isHidden(sel('error'))).toBe(true);
      expect(await listed()).toEqual(expected(acme.slice(0, 5)));
    },
    TIMEOUT,
  );

  it(
    `screenshots the app${mode === 'server' ? ' and the /docs page of the mock server' : ''}, not blank`,
    async () => {
      await mkdir(SCREENSHOTS, { recursive: true });
      await open();
      await openCollection('Product FAQ');
      await page.click(`${sel('object-item')}[data-id="${firstFaqObject.id}"] a`);
      await page.waitForSelector(`${sel('object-json')}:not([hidden])`, WAIT);
      const shots = { [`web-app-${mode}`]: await page.screenshot() };
      if (api) {
        await page.goto(`${api.url}/docs`);
        await page.waitForSelector('.swagger-ui .opblock', WAIT);
        shots['mock-docs'] = await page.screenshot();
      }

      // The check must tell a blank page from a rendered one: about:blank has 1 colour, all white.
      await page.goto('about:blank');
      expect(await imageStats(page, await page.screenshot())).toEqual({
        width: 1280,
        colours: 1,
        nonWhite: 0,
      });
      for (const [name, png] of Object.entries(shots)) {
        await writeFile(`${SCREENSHOTS}${name}.png`, png);
        const stats = await imageStats(page, png);
        expect(stats.width, name).toBe(1280);
        expect(stats.colours, name).toBeGreaterThan(50);
        expect(stats.nonWhite, name).toBeGreaterThan(0.05);
      }
    },
    TIMEOUT,
  );

  // The HAR Chromium writes while the app talks to the mock, replayed against the independent
  // server through its description: what the app's own traffic relied on, judged there.
  it.runIf(mode === 'server')(
    'records a HAR of the app talking to the mock that replays against the independent server',
    async () => {
      const har = `${SCREENSHOTS}web-app-${mode}.har`;
      await mkdir(SCREENSHOTS, { recursive: true });
      const context = await browser.newContext({ recordHar: { path: har } });
      page = await context.newPage();
      await open();
      await openCollection('Product FAQ');
      await page.fill(sel('search-input'), searchWord);
      await page.press(sel('search-input'), 'Enter');
      await page.waitForSelector(sel('search-hit'), WAIT);
      await page.fill(sel('api-key'), 'answers_test_no_such_key');
      await page.click(sel('api-key-save'));
      await showsError(/^401 Unauthorized: /);
      await context.close(); // writes the HAR

      const roles = Object.fromEntries(DEV_KEYS.map((k) => [k.key, keyRole(k.key, DEV_KEYS)]));
      const recording = await readReplayFile(har, {
        description: DEFAULT_DESCRIPTION,
        roleOf: (key) => roles[key] ?? 'unknown',
      });
      const exchanges = recording.sequences.flatMap((s) => s.exchanges);
      expect(exchanges.map((e) => e.operation)).toEqual(
        expect.arrayContaining(['listCollections', 'getCollection', 'searchObjects']),
      );
      expect(exchanges.map((e) => e.key)).toEqual(expect.arrayContaining(['full', 'unknown']));
      expect(JSON.stringify(recording)).not.toMatch(/answers_test_|authorization|cookie/i);

      const independent = await startIndependentServer();
      try {
        const report = await replay({
          baseUrl: independent.url,
          keys: independent.keys,
          recording,
          description: await loadTargetFile(TARGET),
        });
        expect(report.sequences.filter((s) => s.divergence)).toEqual([]);
        expect(report.sequences.reduce((n, s) => n + s.outcome.judged, 0)).toBeGreaterThanOrEqual(
          3,
        );
        expect(report.leftBehind).toEqual([]);
      } finally {
        await independent.close();
      }
    },
    TIMEOUT,
  );
});

/**
 * The inspector page (`/__mock/ui`, issue 50) in Chromium, as a developer uses it: the page open
 * beside an app (here `curl`), each request's row appearing as it is answered; a 503 forced from
 * the page and met by the next request; latency set and seen in the duration; reset; a collection
 * browsed and a search run as a chosen key; the keyboard; 360 px and dark mode; no console error;
 * a foreign page and a rebinding name refused in the browser itself. Screenshots of the three
 * views are saved in screenshots/ for review (and, with UPDATE_SCREENSHOTS=1, the README's
 * image of the journal in docs/images/).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMock, type AnswersMock } from '../../src/index.ts';
import { startServer, type RunningServer } from '../../src/node/server.ts';
import { CHROMIUM_LAUNCH } from '../support/chromium.ts';
import { KEYS } from '../support/keys.ts';

const ROOT = new URL('../../', import.meta.url);
const SCREENSHOTS = fileURLToPath(new URL('screenshots/', ROOT));
const TIMEOUT = 60_000;
const WAIT = { timeout: 15_000 };

/** The names a foreign site and a rebinding page would use, resolved by Chromium to loopback. */
const FOREIGN = 'evil.example';
const REBIND = 'rebind.example';

let browser: Browser;
let mock: AnswersMock;
let api: RunningServer;
let foreignSite: Server;
let page: Page;
let problems: string[];
/** The Node server's request log: what it answered, whoever asked. */
const served: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    headless: true,
    ...CHROMIUM_LAUNCH,
    args: [
      ...CHROMIUM_LAUNCH.args,
      `--host-resolver-rules=MAP ${FOREIGN} 127.0.0.1, MAP ${REBIND} 127.0.0.1`,
    ],
  });
  mock = await createMock({ now: '2026-11-29T09:00:00.000Z' });
  api = await startServer({ mock, port: 0, logger: (line) => served.push(line) });
  // A page of another site that tries to read the journal of the mock on this machine.
  foreignSite = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>evil</title>');
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => foreignSite.once('listening', resolve));
}, TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  foreignSite?.closeAllConnections();
  foreignSite?.close();
});

beforeEach(async () => {
  await mock.controls.reset();
  mock.controls.clearFailures();
  page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
});
afterEach(async () => {
  await page?.close();
});

/** `curl` against the mock, as a developer's terminal beside the page: its status. */
async function curl(path: string, key?: string): Promise<number> {
  const { stdout } = await promisify(execFile)('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    ...(key ? ['-H', `Authorization: Bearer ${key}`] : []),
    `${api.url}${path}`,
  ]);
  return Number(stdout);
}

async function openInspector() {
  await page.goto(`${api.url}/__mock/ui`);
  await page.waitForSelector('#live[data-state="live"]', WAIT);
}

/** The journal's rows as shown, newest first: [seq, request, key, status text, ms]. */
const rows = () =>
  page.$$eval('#journal-table tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.innerText.trim())),
  );

async function screenshot(name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = `${SCREENSHOTS}inspector-${name}.png`;
  await page.screenshot({ path: file, fullPage: true });
  // @note The README shows the journal only: the other views' images would weigh the clone.
  if (process.env.UPDATE_SCREENSHOTS === '1' && name === 'journal') {
    await mkdir(fileURLToPath(new URL('docs/images/', ROOT)), { recursive: true });
    await copyFile(file, fileURLToPath(new URL(`docs/images/inspector-${name}.png`, ROOT)));
  }
  expect((await stat(file)).size).toBeGreaterThan(10_000);
}

describe('the inspector page in Chromium', () => {
  it(
    'shows each request as curl sends it, forces a 503 and a latency from the page, and resets',
    async () => {
      await openInspector();
      expect(await curl('/api/answers/v1/collections', KEYS.full)).toBe(200);
      await page.waitForSelector('#journal-table tbody tr[data-seq="1"]', WAIT);
      expect(await curl('/api/answers/v1/collections')).toBe(401);
      await page.waitForSelector('#journal-table tbody tr[data-seq="2"]', WAIT);
      const [newest, first] = await rows();
      expect([first![0], first![2], first![4], first![5]]).toEqual([
        '1',
        'GET /api/answers/v1/collections',
        'full',
        '200',
      ]);
      expect([newest![0], newest![4], newest![5]]).toEqual([
        '2',
        'none',
        '401\nmissing_credentials',
      ]);

      // A row opens the request and its answer, from the keyboard.
      await page.focus('#journal-table tbody tr[data-seq="2"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#entry:not([hidden])', WAIT);
      expect(await page.textContent('#entry-title')).toBe(
        '#2 GET /api/answers/v1/collections → 401',
      );
      expect(await page.textContent('#entry-fields')).toContain('missing_credentials');

      // A 503 forced from the page: the next request of the operation gets it.
      await page.click('#tab-controls');
      await page.waitForSelector('#failure-operation option[value="getCollection"]', {
        state: 'attached',
        ...WAIT,
      });
      await page.selectOption('#failure-operation', 'listCollections');
      await page.selectOption('#failure-status', '503');
      await page.click('#failure-form button');
      await page.waitForSelector('#failures-queued li', { state: 'attached', ...WAIT });
      expect(await page.textContent('#failures-queued')).toBe('listCollections: 503 × 1');
      expect(await curl('/api/answers/v1/collections', KEYS.full)).toBe(503);
      expect(await curl('/api/answers/v1/collections', KEYS.full)).toBe(200);

      // A latency set from the page: the next request's duration shows it.
      await page.fill('#latency', '120');
      await page.click('#latency-form button');
      await page.waitForSelector('#message:has-text("120 ms")', WAIT);
      expect(mock.controls.requests().length).toBe(4);
      expect(await curl('/api/answers/v1/collections', KEYS.full)).toBe(200);
      await screenshot('controls');

      await page.click('#tab-journal');
      await page.waitForSelector('#journal-table tbody tr[data-seq="5"]', WAIT);
      const shown = await rows();
      expect(shown.map((row) => row[0])).toEqual(['5', '4', '3', '2', '1']);
      expect(shown[2]![5]).toContain('503');
      expect(shown[2]![5]).toContain('forced: a queued failure');
      expect(Number(shown[0]![6])).toBeGreaterThanOrEqual(120);
      expect(shown[0]![5]).toContain('+120 ms');
      await page.click('#journal-table tbody tr[data-seq="3"]');
      expect(await page.textContent('#entry-title')).toBe(
        '#3 GET /api/answers/v1/collections → 503',
      );
      expect(await page.textContent('#entry-fields')).toContain('a queued failure');
      await screenshot('journal');

      // The filters: status class and operation.
      await page.fill('#filter-status', '5xx');
      expect((await rows()).map((row) => row[0])).toEqual(['3']);
      await page.fill('#filter-status', '');

      // Reset from the page: the journal starts again, and so does the view.
      await page.click('#tab-controls');
      await page.click('#reset');
      await page.waitForSelector('#message:has-text("Reset")', WAIT);
      await page.click('#tab-journal');
      await page.waitForSelector('#journal-table tbody tr', { state: 'detached', ...WAIT });
      expect(await curl('/api/answers/v1/collections', KEYS.full)).toBe(200);
      await page.waitForSelector('#journal-table tbody tr[data-seq="1"]', WAIT);
      expect(await rows()).toHaveLength(1);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'browses the collections, a collection and an object, and searches, as the key chosen',
    async () => {
      await openInspector();
      await page.click('#tab-data');
      await page.waitForSelector('#collections tbody tr', WAIT);
      const names = await page.$$eval('#collections tbody tr td:first-child', (tds) =>
        tds.map((td) => td.textContent),
      );
      expect(names).toContain('Product FAQ');
      await page.click('#collections tbody tr:has-text("Product FAQ")');
      await page.waitForSelector('#objects tbody tr', WAIT);
      expect(await page.$$eval('#objects tbody tr', (trs) => trs.length)).toBe(20);
      await page.click('#objects button:has-text("Next")');
      await page.waitForSelector('#objects .pager:has-text("page 2")', WAIT);
      expect(await page.$$eval('#objects tbody tr', (trs) => trs.length)).toBe(4);
      await page.click('#objects tbody tr:first-child');
      await page.waitForSelector('#object:not(:empty)', WAIT);
      const object = JSON.parse((await page.textContent('#object'))!) as { id: string };
      expect(object.id).toMatch(/^obj_/);

      await page.fill('#search-query', 'refund');
      await page.check('#search-scoped');
      await page.click('#search-form button');
      await page.waitForSelector('#search-results p', WAIT);
      expect(await page.textContent('#search-results p')).toMatch(/^\d+ hits in Product FAQ$/);
      await screenshot('data');

      // Another account, chosen by name, is browsed as its key; an inactive key is refused.
      await page.click('#accounts [data-account="globex"] button');
      expect(await page.inputValue('#as-key')).toBe(KEYS.globex);
      expect(await page.textContent('#as-account')).toBe('account globex, may read, write, search');
      await page.waitForSelector('#collections tbody tr', WAIT);
      expect(
        await page.$$eval('#collections tbody tr td:first-child', (tds) =>
          tds.map((td) => td.textContent),
        ),
      ).not.toContain('Product FAQ');
      await page.selectOption('#as-key', KEYS.inactive);
      await page.waitForSelector('#collections [role="alert"]', WAIT);
      expect(await page.textContent('#collections [role="alert"]')).toContain('401');
      expect(problems.filter((text) => !text.includes('401'))).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'works from the keyboard, at 360 px and in dark mode',
    async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await openInspector();
      expect(await curl('/api/answers/v1/collections/col_nope', KEYS.full)).toBe(404);
      await page.waitForSelector('#journal-table tbody tr', WAIT);
      await page.focus('#tab-journal');
      await page.keyboard.press('ArrowRight');
      expect(await page.getAttribute('#tab-data', 'aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect(await page.getAttribute('#tab-controls', 'aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect(await page.getAttribute('#tab-journal', 'aria-selected')).toBe('true');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(13, 17, 23)');
      await screenshot('narrow-dark');
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'is refused to a page of another site and to a rebinding name, as the control API is',
    async () => {
      const port = (foreignSite.address() as AddressInfo).port;
      await page.goto(`http://${FOREIGN}:${port}/`);
      const fromForeign = await page.evaluate(async (base) => {
        const read = async (path: string) => {
          try {
            const response = await fetch(`${base}${path}`);
            return response.status;
          } catch {
            return 'blocked';
          }
        };
        return [await read('/__mock/ui'), await read('/__mock/requests/stream')];
      }, api.url);
      // The page cannot read the answer (no CORS grant), and the mock refused it: its log says so.
      expect(fromForeign).toEqual(['blocked', 'blocked']);
      const refused = served.filter((line) =>
        / GET \/__mock\/(ui|requests\/stream) 403\b/.test(line),
      );
      expect(refused).toHaveLength(2);

      const rebound = await page.goto(`http://${REBIND}:${new URL(api.url).port}/__mock/ui`);
      expect(rebound!.status()).toBe(403);
      expect(await rebound!.json()).toMatchObject({ code: 'forbidden_host' });
    },
    TIMEOUT,
  );

  it(
    'asks for the control token of a mock that has one, or takes it from the address',
    async () => {
      const token = 'a-control-token-for-the-inspector-test';
      const guarded = await startServer({ mock, port: 0, quiet: true, controlToken: token });
      try {
        await page.goto(`${guarded.url}/__mock/ui`);
        await page.waitForSelector('#token-form:not([hidden])', WAIT);
        await page.fill('#token', token);
        await page.click('#token-form button');
        await page.waitForSelector('#live[data-state="live"]', WAIT);

        // The address printed at start: the token after `#`, which the page keeps and hides.
        const second = await browser.newPage();
        await second.goto(`${guarded.url}/__mock/ui#token=${token}`);
        await second.waitForSelector('#live[data-state="live"]', WAIT);
        expect(second.url()).toBe(`${guarded.url}/__mock/ui`);
        await second.close();
        // The page's 401s before the token was typed are the only console errors.
        expect(problems.filter((text) => !text.includes('401'))).toEqual([]);
      } finally {
        await guarded.close();
      }
    },
    TIMEOUT,
  );

  it('weighs at most the budget docs/performance.md states', async () => {
    const budgetRow = (await readFile(new URL('docs/performance.md', ROOT), 'utf8'))
      .split('\n')
      .find((line) => line.includes("the inspector page's own files"));
    const budget = Number(/at most (\d+) KiB/.exec(budgetRow ?? '')?.[1]) * 1024;
    expect(budget).toBeGreaterThan(0);
    let bytes = 0;
    for (const file of ['inspector.html', 'inspector.css', 'inspector.js'])
      bytes += (await stat(new URL(`src/node/inspector/${file}`, ROOT))).size;
    expect(bytes).toBeLessThanOrEqual(budget);
  });
});

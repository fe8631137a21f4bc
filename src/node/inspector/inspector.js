// @ts-check
/**
 * The inspector page (`/__mock/ui`): the request journal live, the data as a key sees it, and the
 * controls. Plain DOM, no framework: three views of forms and tables are a few hundred lines, and
 * a library would be more bytes than the page (docs/performance.md, "Inspector page").
 *
 * Every value the mock holds (names, content, paths) is written with `textContent`, never as
 * markup: an object's content is whatever a client stored. The control token, when the mock has
 * one, comes in the address's fragment (`#token=`, never sent to a server, never in a log) or is
 * typed into the page; it is kept for the tab only (sessionStorage) and sent as a header.
 */

/** The mock's root, for an express router mounted under a path too: what is before `/__mock/ui`. */
const ROOT = location.pathname.slice(0, location.pathname.lastIndexOf('/__mock/ui'));
const CONTROL = `${ROOT}/__mock`;
const API = `${ROOT}/api/answers/v1`;
/** The rows the journal view keeps: the journal itself keeps more (`GET /__mock/requests`). */
const MAX_ROWS = 500;
const PAGE_SIZE = 20;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

/**
 * An element with text (never markup), attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {Array<Node | string>} [children]
 */
function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** @param {string} text @param {'info' | 'error'} [kind] */
function say(text, kind = 'info') {
  const message = $('message');
  message.dataset.kind = kind;
  message.textContent = text;
}

// --- the control token -------------------------------------------------------------------------

const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.has('token')) {
  sessionStorage.setItem('answers-mock-token', fragment.get('token') ?? '');
  history.replaceState(null, '', location.pathname + location.search);
}
/** @returns {Record<string, string>} */
function tokenHeader() {
  const token = sessionStorage.getItem('answers-mock-token');
  return token ? { 'x-answers-mock-token': token } : {};
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem('answers-mock-token', input('token').value);
  $('token-form').hidden = true;
  void start();
});

/**
 * A request to the control API; its JSON answer, or an error whose message is the problem's.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 */
async function control(path, options = {}) {
  const response = await fetch(`${CONTROL}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...tokenHeader(),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return answerOf(response);
}

/** @param {Response} response */
async function answerOf(response) {
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  if (response.ok) return body;
  if (body?.code === 'control_token_required') $('token-form').hidden = false;
  throw new Error(
    `${response.status} ${body?.code ?? ''}: ${body?.detail ?? body?.title ?? response.statusText}`,
  );
}

// --- the views ---------------------------------------------------------------------------------

const tabs = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll('[role="tab"]')]);
/** @param {HTMLButtonElement} tab */
function show(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute('aria-controls') ?? '').hidden = !selected;
  }
  tab.focus();
  if (tab.id === 'tab-controls') void refreshControls();
  if (tab.id === 'tab-data') void refreshData();
}
for (const tab of tabs) {
  tab.addEventListener('click', () => show(tab));
  // Arrow keys move between tabs, as the ARIA tabs pattern has it.
  tab.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (step === undefined) return;
    show(tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length]);
  });
}

/**
 * Makes a table row open something with a click, Enter or Space.
 * @param {HTMLElement} row @param {() => void} open
 */
function opens(row, open) {
  row.tabIndex = 0;
  row.addEventListener('click', open);
  row.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    open();
  });
}

// --- the journal -------------------------------------------------------------------------------

/** @typedef {{ seq: number, at: string, method: string, path: string, operation?: string, key: string, maskedKey?: string, status: number, code?: string, ms: number, forced?: { how?: string, latencyMs?: number }, requestBody?: string, responseBody?: string }} Entry */

/** @type {Entry[]} */
let entries = [];
let bodiesKept = false;

/** @param {Entry} entry */
function shown(entry) {
  const operation = select('filter-operation').value;
  const status = input('filter-status').value.trim().toLowerCase();
  if (operation && entry.operation !== operation) return false;
  if (!status) return true;
  // `4xx` a class, `401` one status.
  return status.endsWith('xx')
    ? String(entry.status)[0] === status[0]
    : String(entry.status) === status;
}

/** @param {Entry} entry */
function journalRow(entry) {
  const forced = [entry.forced?.how, entry.forced?.latencyMs ? `+${entry.forced.latencyMs} ms` : '']
    .filter(Boolean)
    .join(', ');
  const row = el('tr', { 'data-seq': String(entry.seq), 'data-status': String(entry.status) }, [
    el('td', {}, [String(entry.seq)]),
    el('td', { class: 'wide' }, [entry.at.slice(11, 23)]),
    el('td', { class: 'path' }, [`${entry.method} ${entry.path}`]),
    el('td', { class: 'wide' }, [entry.operation ?? '-']),
    el('td', {}, [entry.key]),
    el('td', { class: `status-${String(entry.status)[0]}` }, [
      String(entry.status),
      ...(entry.code ? [el('div', { class: 'forced' }, [entry.code])] : []),
      ...(forced ? [el('div', { class: 'forced' }, [`forced: ${forced}`])] : []),
    ]),
    el('td', {}, [String(entry.ms)]),
  ]);
  opens(row, () => openEntry(entry, row));
  return row;
}

function renderJournal() {
  const body = /** @type {HTMLElement} */ ($('journal-table').querySelector('tbody'));
  const visible = entries.filter(shown);
  body.replaceChildren(...visible.slice(-MAX_ROWS).reverse().map(journalRow));
  $('journal-count').textContent = `${visible.length} of ${entries.length} shown`;
}

/** @param {Entry} entry */
function addEntry(entry) {
  entries.push(entry);
  if (entries.length > MAX_ROWS * 2) entries = entries.slice(-MAX_ROWS);
  if (!shown(entry)) {
    $('journal-count').textContent = `${entries.filter(shown).length} of ${entries.length} shown`;
    return;
  }
  const body = /** @type {HTMLElement} */ ($('journal-table').querySelector('tbody'));
  body.prepend(journalRow(entry));
  while (body.children.length > MAX_ROWS) body.lastElementChild?.remove();
  $('journal-count').textContent = `${entries.filter(shown).length} of ${entries.length} shown`;
}

/** @param {string | undefined} text */
function pretty(text) {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** @param {Entry} entry @param {HTMLElement} row */
function openEntry(entry, row) {
  for (const current of document.querySelectorAll('#journal-table [aria-current]'))
    current.removeAttribute('aria-current');
  row.setAttribute('aria-current', 'true');
  $('entry').hidden = false;
  $('entry-title').textContent = `#${entry.seq} ${entry.method} ${entry.path} → ${entry.status}`;
  /** @type {Array<[string, string | undefined]>} */
  const fields = [
    ['Time', entry.at],
    ['Operation', entry.operation],
    ['Key', `${entry.key}${entry.maskedKey ? ` (${entry.maskedKey})` : ''}`],
    ['Status', `${entry.status}${entry.code ? ` ${entry.code}` : ''}`],
    ['Took', `${entry.ms} ms`],
    ['Forced', entry.forced?.how],
    ['Latency', entry.forced?.latencyMs ? `${entry.forced.latencyMs} ms` : undefined],
  ];
  $('entry-fields').replaceChildren(
    ...fields
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) => [el('dt', {}, [name]), el('dd', {}, [value ?? ''])]),
  );
  const none = bodiesKept ? '(none)' : 'Bodies are not kept: start the mock with --journal-bodies.';
  $('entry-request').textContent = pretty(entry.requestBody) || none;
  $('entry-response').textContent = pretty(entry.responseBody) || none;
}

select('filter-operation').addEventListener('change', renderJournal);
input('filter-status').addEventListener('input', renderJournal);
$('journal-clear-view').addEventListener('click', () => {
  entries = [];
  renderJournal();
});

/**
 * Reads `GET /__mock/requests/stream` (server-sent events) with fetch, which can send the
 * control token (EventSource cannot send a header), and reconnects from the last event seen.
 */
async function follow() {
  let lastId = '';
  for (;;) {
    try {
      const response = await fetch(`${CONTROL}/requests/stream`, {
        headers: { ...tokenHeader(), ...(lastId ? { 'last-event-id': lastId } : {}) },
      });
      if (!response.ok || !response.body) {
        await answerOf(response);
        return;
      }
      $('live').dataset.state = 'live';
      $('live').textContent = 'live';
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const id = handleEvent(buffer.slice(0, end));
          if (id) lastId = id;
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (error) {
      say(`The journal stream stopped: ${/** @type {Error} */ (error).message}`, 'error');
    }
    $('live').dataset.state = 'lost';
    $('live').textContent = 'reconnecting…';
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** @param {string} block one server-sent event; returns its id */
function handleEvent(block) {
  /** @type {Record<string, string>} */
  const fields = {};
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields[line.slice(0, colon)] = line.slice(colon + 1).trimStart();
  }
  const data = fields.data ? JSON.parse(fields.data) : undefined;
  if (fields.event === 'hello') {
    bodiesKept = data.bodies;
    if (data.size === 0) say('The journal is off (--journal-size 0): no request is kept.');
  } else if (fields.event === 'reset') {
    entries = [];
    renderJournal();
    $('entry').hidden = true;
  } else if (fields.event === 'request') addEntry(data);
  return fields.id;
}

// --- the data, as a key sees it ----------------------------------------------------------------

/** @typedef {{ key: string, account_id: string, permissions: string[], active: boolean, role: string, label?: string }} Key */

/** @type {Key[]} */
let keys = [];
/** @type {{ id: string, name: string } | undefined} */
let openCollection;

/** @param {string} path @param {{ method?: string, body?: unknown }} [options] */
async function api(path, options = {}) {
  const response = await fetch(`${API}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      authorization: `Bearer ${select('as-key').value}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return answerOf(response);
}

async function loadKeys() {
  const { accounts, keys: all } = await control('/keys');
  keys = all;
  const chosen = select('as-key').value;
  select('as-key').replaceChildren(
    ...keys.map((key) =>
      el('option', { value: key.key }, [`${key.label ?? key.key} (${key.role})`]),
    ),
  );
  if (keys.some((key) => key.key === chosen)) select('as-key').value = chosen;
  showAccount();
  $('accounts').replaceChildren(
    .../** @type {Array<{ id: string, name: string }>} */ (accounts).map((account) => {
      const own = keys.filter((k) => k.account_id === account.id);
      // Browsing an account is browsing as its key with the most permissions that is active.
      const best = own
        .filter((k) => k.active)
        .sort((a, b) => b.permissions.length - a.permissions.length)[0];
      const choose = el('button', { type: 'button' }, [`${account.name} (${account.id})`]);
      choose.toggleAttribute('disabled', !best);
      choose.addEventListener('click', () => {
        if (!best) return;
        select('as-key').value = best.key;
        select('as-key').dispatchEvent(new Event('change'));
      });
      return el('li', { 'data-account': account.id }, [choose, ` ${own.length} keys`]);
    }),
  );
  $('keys')
    .querySelector('tbody')
    ?.replaceChildren(
      ...keys.map((key) =>
        el('tr', {}, [
          el('td', {}, [el('code', {}, [key.key])]),
          el('td', {}, [key.role]),
          el('td', {}, [key.account_id]),
          el('td', {}, [key.permissions.join(', ')]),
          el('td', {}, [key.active ? 'yes' : 'no']),
        ]),
      ),
    );
}

function showAccount() {
  const key = keys.find((k) => k.key === select('as-key').value);
  $('as-account').textContent = key
    ? `account ${key.account_id}, may ${key.permissions.join(', ')}${key.active ? '' : ' (inactive)'}`
    : '';
  for (const item of $('accounts').children)
    item.setAttribute(
      'aria-current',
      String(item.getAttribute('data-account') === key?.account_id),
    );
}

/**
 * A paged list: the API's own pages (`limit`, `next_cursor`), Previous by the cursors seen.
 * @param {HTMLElement} into
 * @param {string} path
 * @param {string[]} headings
 * @param {(item: any) => string[]} cells
 * @param {(item: any) => void} open
 */
function pagedList(into, path, headings, cells, open) {
  /** @type {Array<string | undefined>} */
  const cursors = [undefined];
  const load = async () => {
    const cursor = cursors.at(-1);
    const query = `?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    try {
      const page = await api(`${path}${query}`);
      const rows = page.data.map((/** @type {any} */ item) => {
        const row = el(
          'tr',
          { 'data-id': item.id },
          cells(item).map((text) => el('td', {}, [text])),
        );
        opens(row, () => open(item));
        return row;
      });
      const previous = el('button', { type: 'button' }, ['Previous']);
      previous.toggleAttribute('disabled', cursors.length === 1);
      previous.addEventListener('click', () => {
        cursors.pop();
        void load();
      });
      const next = el('button', { type: 'button' }, ['Next']);
      next.toggleAttribute('disabled', !page.has_more);
      next.addEventListener('click', () => {
        cursors.push(page.next_cursor);
        void load();
      });
      into.replaceChildren(
        el('div', { class: 'scroll' }, [
          el('table', {}, [
            el('thead', {}, [
              el(
                'tr',
                {},
                headings.map((h) => el('th', { scope: 'col' }, [h])),
              ),
            ]),
            el('tbody', {}, rows),
          ]),
        ]),
        el('div', { class: 'pager' }, [previous, `page ${cursors.length}`, next]),
      );
    } catch (error) {
      into.replaceChildren(el('p', { role: 'alert' }, [/** @type {Error} */ (error).message]));
    }
  };
  void load();
}

/** @param {any} value */
function showObject(value) {
  $('object-title').hidden = false;
  $('object').textContent = JSON.stringify(value, null, 2);
}

function listCollections() {
  pagedList(
    $('collections'),
    '/collections',
    ['Name', 'Objects', 'Id'],
    (c) => [c.name, String(c.object_count), c.id],
    (collection) => {
      openCollection = collection;
      $('objects-title').hidden = false;
      $('objects-title').textContent = `Objects of ${collection.name}`;
      pagedList(
        $('objects'),
        `/collections/${encodeURIComponent(collection.id)}/objects`,
        ['Id', 'Content', 'Version'],
        (o) => [o.id, JSON.stringify(o.content).slice(0, 120), String(o.version ?? '')],
        (object) =>
          void api(
            `/collections/${encodeURIComponent(collection.id)}/objects/${encodeURIComponent(object.id)}`,
          ).then(showObject, (error) => say(error.message, 'error')),
      );
    },
  );
}

async function refreshData() {
  try {
    await loadKeys();
    listCollections();
  } catch (error) {
    say(/** @type {Error} */ (error).message, 'error');
  }
}

select('as-key').addEventListener('change', () => {
  showAccount();
  openCollection = undefined;
  $('objects').replaceChildren();
  $('objects-title').hidden = true;
  listCollections();
});

$('search-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const scoped = input('search-scoped').checked && openCollection;
  const results = $('search-results');
  try {
    const page = await api('/search', {
      method: 'POST',
      body: {
        query: input('search-query').value,
        limit: PAGE_SIZE,
        ...(scoped ? { collection_ids: [openCollection?.id] } : {}),
      },
    });
    const rows = page.data.map((/** @type {any} */ hit) => {
      const row = el('tr', { 'data-id': hit.object.id }, [
        el('td', {}, [String(hit.score)]),
        el('td', {}, [hit.object.id]),
        el('td', {}, [JSON.stringify(hit.object.content).slice(0, 120)]),
      ]);
      opens(row, () => showObject(hit.object));
      return row;
    });
    results.replaceChildren(
      el('p', {}, [
        `${page.total ?? rows.length} hits${scoped ? ` in ${openCollection?.name}` : ''}`,
      ]),
      el('div', { class: 'scroll' }, [
        el('table', { id: 'search-table' }, [
          el('thead', {}, [
            el(
              'tr',
              {},
              ['Score', 'Id', 'Content'].map((h) => el('th', { scope: 'col' }, [h])),
            ),
          ]),
          el('tbody', {}, rows),
        ]),
      ]),
    );
  } catch (error) {
    results.replaceChildren(el('p', { role: 'alert' }, [/** @type {Error} */ (error).message]));
  }
});

// --- the controls ------------------------------------------------------------------------------

/** @type {Record<string, number[]>} */
let forcible = {};

async function refreshControls() {
  try {
    const [failures, latency, clock] = await Promise.all([
      control('/failures'),
      control('/latency'),
      control('/clock'),
      loadKeys(),
    ]);
    forcible = failures.forcible;
    const operations = Object.keys(forcible);
    if (select('failure-operation').options.length !== operations.length) {
      select('failure-operation').replaceChildren(
        ...operations.map((id) => el('option', { value: id }, [id])),
      );
      showStatuses();
    }
    $('failures-queued').replaceChildren(
      .../** @type {Array<{ operation_id: string, status: number, times: number }>} */ (
        failures.queued
      ).map((f) => el('li', {}, [`${f.operation_id}: ${f.status} × ${f.times}`])),
    );
    input('latency').value = String(latency.ms);
    $('clock-now').textContent = `${clock.now}${clock.frozen ? ' (frozen)' : ''}`;
  } catch (error) {
    say(/** @type {Error} */ (error).message, 'error');
  }
}

function showStatuses() {
  const statuses = forcible[select('failure-operation').value] ?? [];
  select('failure-status').replaceChildren(
    ...statuses.map((status) => el('option', { value: String(status) }, [String(status)])),
  );
  if (statuses.includes(503)) select('failure-status').value = '503';
}
select('failure-operation').addEventListener('change', showStatuses);

/**
 * A control's form or button: runs it, says what it did, shows the controls as they are now.
 * @param {string} id @param {string} event @param {() => Promise<string>} action
 */
function onControl(id, event, action) {
  $(id).addEventListener(event, async (e) => {
    e.preventDefault();
    try {
      say(await action());
    } catch (error) {
      say(/** @type {Error} */ (error).message, 'error');
    }
    await refreshControls();
  });
}

onControl('reset', 'click', async () => {
  await control('/reset', { method: 'POST' });
  return 'Reset: the mock is as it started.';
});
onControl('latency-form', 'submit', async () => {
  await control('/latency', { method: 'PUT', body: { ms: Number(input('latency').value) } });
  return `Every answer now waits ${input('latency').value} ms.`;
});
onControl('failure-form', 'submit', async () => {
  const failure = {
    operation_id: select('failure-operation').value,
    status: Number(select('failure-status').value),
    times: Number(input('failure-times').value),
  };
  await control('/failures', { method: 'POST', body: failure });
  return `The next ${failure.times} ${failure.operation_id} will answer ${failure.status}.`;
});
onControl('failures-clear', 'click', async () => {
  await control('/failures', { method: 'DELETE' });
  return 'No failure waits, and no latency.';
});
onControl('clock-form', 'submit', async () => {
  const clock = await control('/clock', {
    method: 'POST',
    body: { now: input('clock-set').value },
  });
  return `The clock shows ${clock.now}.`;
});
onControl('advance-form', 'submit', async () => {
  const clock = await control('/clock', {
    method: 'POST',
    body: { advance_ms: Number(input('clock-advance').value) },
  });
  return `The clock shows ${clock.now}.`;
});
onControl('clock-real', 'click', async () => {
  await control('/clock', { method: 'POST', body: { real_time: true } });
  return 'The clock follows the wall clock.';
});

// --- start -------------------------------------------------------------------------------------

async function start() {
  try {
    await refreshControls();
    const operation = select('filter-operation');
    operation.replaceChildren(
      el('option', { value: '' }, ['any']),
      ...Object.keys(forcible).map((id) => el('option', { value: id }, [id])),
    );
    void follow();
  } catch (error) {
    say(/** @type {Error} */ (error).message, 'error');
  }
}
void start();

import type { Api, Collection } from './api.ts';
import { attempt, byTestId, h } from './ui.ts';

export const collectionHref = (id: string) => `#/collections/${encodeURIComponent(id)}`;

const objectCount = ({ object_count: n }: Collection) => `${n} ${n === 1 ? 'object' : 'objects'}`;

function item(collection: Collection): HTMLLIElement {
  return h(
    'li',
    { 'data-testid': 'collection-item', 'data-id': collection.id },
    h(
      'a',
      { href: collectionHref(collection.id), 'data-testid': 'collection-link' },
      collection.name,
    ),
    h('span', { class: 'count', 'data-testid': 'collection-count' }, objectCount(collection)),
  );
}

/**
 * The collections of the account, one page at a time: the API's `limit` and `next_cursor`, with
 * the cursors of the pages seen so far kept for "Previous".
 */
export function collectionList(api: Api) {
  const list = byTestId('collection-list');
  const previous = byTestId<HTMLButtonElement>('collections-prev');
  const next = byTestId<HTMLButtonElement>('collections-next');
  const label = byTestId('collections-page');
  /** `cursors[i]` fetches page i + 1; the first page needs none. */
  let cursors: (string | undefined)[] = [undefined];
  let index = 0;
  /** The names of the collections seen so far, by id (for search hits). */
  const names = new Map<string, string>();

  function render(page: Collection[], pageIndex: number) {
    const empty = h('li', { class: 'muted' }, 'No collections.');
    list.replaceChildren(...(page.length > 0 ? page.map(item) : [empty]));
    list.dataset.page = String(pageIndex + 1);
    label.textContent = `Page ${pageIndex + 1}`;
    previous.disabled = pageIndex === 0;
    next.disabled = cursors[pageIndex + 1] === undefined;
  }

  /** Shows page `pageIndex + 1`; on failure, an empty list (the caller shows the error). */
  async function show(pageIndex: number): Promise<void> {
    list.setAttribute('aria-busy', 'true');
    try {
      const page = await api.listCollections(cursors[pageIndex]);
      if (page.data.length === 0 && pageIndex > 0) return await show(pageIndex - 1);
      index = pageIndex;
      cursors = cursors.slice(0, index + 1);
      if (page.next_cursor) cursors.push(page.next_cursor);
      for (const collection of page.data) names.set(collection.id, collection.name);
      render(page.data, index);
    } catch (error) {
      list.replaceChildren();
      list.dataset.page = 'error';
      label.textContent = '';
      previous.disabled = next.disabled = true;
      throw error;
    } finally {
      list.removeAttribute('aria-busy');
    }
  }

  previous.addEventListener('click', () => void attempt(() => show(index - 1)));
  next.addEventListener('click', () => void attempt(() => show(index + 1)));

  return {
    names,
    /** Shows the current page again, e.g. after a delete. */
    refresh: () => show(index),
    /** Back to the first page, e.g. with another key. */
    reset: () => {
      cursors = [undefined];
      return show(0);
    },
  };
}

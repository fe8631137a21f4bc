import type { Api, SearchHit } from './api.ts';
import { objectHref, objectLabel } from './collection-detail.ts';
import { attempt, byTestId, h } from './ui.ts';

/** The search box (`POST /search`): hits with their score and collection. */
export function searchPanel(api: Api, names: Map<string, string>) {
  const form = byTestId<HTMLFormElement>('search-form');
  const input = byTestId<HTMLInputElement>('search-input');
  const summary = byTestId('search-summary');
  const results = byTestId('search-results');

  /** The collection's name; fetched once for collections the list has not shown yet. */
  async function nameOf(id: string): Promise<string> {
    if (!names.has(id)) names.set(id, (await api.getCollection(id)).name);
    return names.get(id) ?? id;
  }

  async function hit(found: SearchHit): Promise<HTMLLIElement> {
    return h(
      'li',
      { 'data-testid': 'search-hit', 'data-id': found.object.id },
      h('a', { href: objectHref(found.object) }, objectLabel(found.object)),
      h('span', { class: 'count', 'data-testid': 'hit-score' }, `score ${found.score.toFixed(2)}`),
      h(
        'span',
        { class: 'count', 'data-testid': 'hit-collection' },
        await nameOf(found.collection_id),
      ),
    );
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = input.value.trim();
    void attempt(async () => {
      const result = await api.search(query);
      results.replaceChildren(...(await Promise.all(result.data.map(hit))));
      summary.textContent = `${result.total} hits for "${query}" (showing ${result.data.length})`;
    });
  });

  return {
    clear() {
      results.replaceChildren();
      summary.textContent = '';
    },
  };
}

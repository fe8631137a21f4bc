import type { AnswersObject, Api, Collection } from './api.ts';
import { collectionHref } from './collections.ts';
import { attempt, byTestId, h } from './ui.ts';

export const objectHref = (object: Pick<AnswersObject, 'collection_id' | 'id'>) =>
  `${collectionHref(object.collection_id)}/objects/${encodeURIComponent(object.id)}`;

/** What an object is called in a list: its `content.title` when it has one. */
export function objectLabel(object: AnswersObject): string {
  const title = object.content.title;
  return typeof title === 'string' ? title : object.id;
}

/**
 * One open collection: its objects (first page), one object's JSON with the system fields, and
 * "Delete collection" behind a confirm dialog.
 */
export function collectionDetail(api: Api, onDeleted: (collection: Collection) => Promise<void>) {
  const panel = byTestId('collection-detail');
  const placeholder = byTestId('detail-placeholder');
  const objects = byTestId('object-list');
  const json = byTestId('object-json');
  let current: Collection | undefined;

  function close() {
    current = undefined;
    panel.hidden = true;
    placeholder.hidden = false;
  }

  async function showCollection(id: string) {
    const [collection, page] = await Promise.all([api.getCollection(id), api.listObjects(id)]);
    current = collection;
    byTestId('collection-name').textContent = collection.name;
    const meta = Object.entries(collection.metadata).map(([key, value]) => `${key}: ${value}`);
    byTestId('collection-meta').textContent = [
      `${collection.object_count} objects (showing ${page.data.length})`,
      ...meta,
    ].join(' · ');
    objects.replaceChildren(
      ...page.data.map((object) =>
        h(
          'li',
          { 'data-testid': 'object-item', 'data-id': object.id },
          h('a', { href: objectHref(object) }, objectLabel(object)),
        ),
      ),
    );
    panel.hidden = false;
    placeholder.hidden = true;
  }

  async function showObject(id: string, objectId: string) {
    const object = await api.getObject(id, objectId);
    for (const li of objects.querySelectorAll('li')) {
      li.classList.toggle('selected', li.dataset.id === objectId);
    }
    json.textContent = JSON.stringify(object, null, 2);
    json.dataset.id = object.id;
    json.hidden = false;
  }

  byTestId('delete-collection').addEventListener('click', () => {
    const collection = current;
    if (!collection) return;
    const question = `Delete "${collection.name}" and its ${collection.object_count} objects? This cannot be undone.`;
    if (!confirm(question)) return;
    void attempt(async () => {
      await api.deleteCollection(collection.id);
      close();
      await onDeleted(collection);
    });
  });

  return {
    close,
    /** Opens a collection, and one of its objects when `objectId` is given. */
    async open(id: string, objectId?: string) {
      json.hidden = true;
      try {
        if (current?.id !== id) await showCollection(id);
        if (objectId) await showObject(id, objectId);
      } catch (error) {
        if (current?.id !== id) close();
        throw error;
      }
    },
  };
}

import './style.css';
import { createApi } from './api.ts';
import { collectionDetail } from './collection-detail.ts';
import { collectionList } from './collections.ts';
import { baseUrl, loadKey, mode, saveKey } from './config.ts';
import { searchPanel } from './search.ts';
import { attempt, byTestId, showError, showNotice } from './ui.ts';

/** Offline mode: the mock runs in this page, behind msw's service worker, on the page's origin. */
async function startOfflineMock(): Promise<void> {
  const { setupAnswersWorker } = await import('answers-mock-kit/browser');
  const { worker } = await setupAnswersWorker({ baseUrl: location.origin });
  await worker.start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
  });
}

/** `#/collections/{id}` or `#/collections/{id}/objects/{object_id}`. */
function parseRoute(hash: string): { collectionId?: string; objectId?: string } {
  const match = /^#\/collections\/([^/]+)(?:\/objects\/([^/]+))?$/.exec(hash);
  if (!match?.[1]) return {};
  return {
    collectionId: decodeURIComponent(match[1]),
    objectId: match[2] && decodeURIComponent(match[2]),
  };
}

async function main(): Promise<void> {
  byTestId('mode').textContent = mode;
  byTestId('base-url').textContent = baseUrl;
  if (mode === 'offline') await startOfflineMock();

  const keyInput = byTestId<HTMLInputElement>('api-key');
  keyInput.value = loadKey();
  const api = createApi(baseUrl, () => keyInput.value.trim());
  const list = collectionList(api);
  const search = searchPanel(api, list.names);
  const detail = collectionDetail(api, async (deleted) => {
    history.replaceState(null, '', location.pathname + location.search);
    showNotice(`Deleted "${deleted.name}" and its ${deleted.object_count} objects.`);
    await list.refresh();
  });

  /** Opens what the URL's hash names; a hash keeps its place on reload and can be shared. */
  const route = async () => {
    const { collectionId, objectId } = parseRoute(location.hash);
    if (!collectionId) return detail.close();
    await attempt(() => detail.open(collectionId, objectId));
  };
  addEventListener('hashchange', () => void route());

  byTestId('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    saveKey(keyInput.value.trim());
    detail.close();
    search.clear();
    history.replaceState(null, '', location.pathname + location.search);
    void attempt(list.reset);
  });

  await attempt(list.reset);
  await route();
  document.body.dataset.ready = 'true';
}

main().catch(showError);

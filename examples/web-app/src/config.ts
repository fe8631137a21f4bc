/**
 * Where the app gets its data. `?mode=offline` (or `VITE_ANSWERS_MODE=offline`) runs the mock in
 * the page with msw; otherwise the app calls the mock server of `npm start` (or a real API).
 */
export type Mode = 'server' | 'offline';

const params = new URLSearchParams(location.search);

export const mode: Mode =
  (params.get('mode') ?? import.meta.env.VITE_ANSWERS_MODE) === 'offline' ? 'offline' : 'server';

export const baseUrl =
  mode === 'offline'
    ? `${location.origin}/api/answers/v1`
    : import.meta.env.VITE_ANSWERS_BASE_URL || 'http://127.0.0.1:4010/api/answers/v1';

/** Collections per page (`?limit=`, 1 to 100): small by default, so the seed's 6 need 2 pages. */
export const pageSize = Math.min(100, Math.max(1, Number(params.get('limit')) || 5));

const DEFAULT_KEY = 'answers_test_full_acme';
const KEY_STORAGE = 'answers-web-app:api-key';

export function loadKey(): string {
  return localStorage.getItem(KEY_STORAGE) || DEFAULT_KEY;
}

export function saveKey(key: string): void {
  localStorage.setItem(KEY_STORAGE, key);
}

/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API base URL in server mode. Default `http://127.0.0.1:4010/api/answers/v1`. */
  readonly VITE_ANSWERS_BASE_URL?: string;
  /** `offline` runs the mock in the page (msw service worker). */
  readonly VITE_ANSWERS_MODE?: string;
}

import { ApiError } from './api.ts';
import { baseUrl } from './config.ts';

/** The element with this `data-testid` (the tests find elements the same way). */
export function byTestId<T extends HTMLElement = HTMLElement>(testId: string): T {
  const element = document.querySelector<T>(`[data-testid="${testId}"]`);
  if (!element) throw new Error(`No element with data-testid="${testId}"`);
  return element;
}

/** Creates an element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** A short text for the user: "404 Not Found: …" for API errors. */
function describe(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError)
    return `Network error: cannot reach ${baseUrl} (${error.message})`;
  return String(error);
}

function say(testId: 'error' | 'notice', text: string | undefined) {
  const element = byTestId(testId);
  element.textContent = text ?? '';
  element.hidden = text === undefined;
}

export const showError = (error: unknown) => say('error', describe(error));
export const showNotice = (text: string) => say('notice', text);
/** Hides the error and the notice, before the next action. */
function clearMessages(): void {
  say('error', undefined);
  say('notice', undefined);
}

/** Runs a user action: hides the last message, then shows what `action` throws, if anything. */
export async function attempt(action: () => Promise<void>): Promise<void> {
  clearMessages();
  try {
    await action();
  } catch (error) {
    showError(error);
  }
}

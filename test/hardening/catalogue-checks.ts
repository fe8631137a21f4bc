import { expect } from 'vitest';

/** What an answer must never contain: markup, stack frames, error class names, file paths. */
export function expectNoInternals(text: string, what: string): void {
  expect(text, `${what}: HTML`).not.toMatch(/<\s*(!doctype|html|head|body|pre|title)\b/i);
  expect(text, `${what}: a stack frame`).not.toMatch(/^\s*at\s|\bat\s+\S+\s+\(|\bat\s+file:/m);
  expect(text, `${what}: an error class`).not.toMatch(/Error:/);
  expect(text, `${what}: a file path`).not.toContain(process.cwd());
  expect(text, `${what}: a file path`).not.toMatch(
    /node_modules|file:\/\/|\.(?:ts|js|mjs|cjs):\d+/,
  );
}

/**
 * Writes `fixtures/default-state.json`, the data `npm start` serves: `npm run fixtures`.
 * `test/data/fixtures.node.test.ts` fails when the committed file differs from a fresh generation.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateState } from './generate-state.ts';

export const DEFAULT_FIXTURE_URL = new URL('../../fixtures/default-state.json', import.meta.url);

/** The text of the default fixture. */
export function defaultFixtureText(): string {
  return `${JSON.stringify(generateState(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(DEFAULT_FIXTURE_URL, defaultFixtureText(), 'utf8');
  console.log(`Wrote ${fileURLToPath(DEFAULT_FIXTURE_URL)}`);
}

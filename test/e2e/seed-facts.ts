/**
 * What the web app must show, read from the default seed (fixtures/default-state.json): acme's
 * collections and their object counts, the collections the tests open and delete, and a search
 * word with the number of acme objects that have it.
 */
import fixture from '../../fixtures/default-state.json' with { type: 'json' };

export const acme = fixture.collections.filter((collection) => collection.account_id === 'acme');
export const countOf = (id: string) => fixture.objects.filter((o) => o.collection_id === id).length;
export const faq = acme.find((collection) => collection.name === 'Product FAQ')!;
export const firstFaqObject = fixture.objects.find((o) => o.collection_id === faq.id)!;
export const deleted = acme.find((collection) => collection.name === 'Release notes')!;

/** A word of the seed and the number of acme objects whose content has it (GAP-SEARCH-MATCH). */
export const searchWord = firstFaqObject.content.tags[0]!;
const words = (value: unknown): string[] =>
  typeof value === 'string'
    ? value.toLowerCase().split(/[^\p{L}\p{N}]+/u)
    : typeof value === 'object' && value !== null
      ? Object.values(value).flatMap(words)
      : [];
export const searchTotal = fixture.objects.filter(
  (o) => o.account_id === 'acme' && words(o.content).includes(searchWord),
).length;

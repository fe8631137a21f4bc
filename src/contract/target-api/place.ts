/**
 * Where a description says a value of a response is: in the body at a JSON Pointer, or in a
 * response header. Real deployments give the next page and the total in headers as often as in
 * the body (GitHub's `Link`, `X-Total-Count`): `{ header: Link }` reads the target of the
 * `rel="next"` link of an RFC 8288 `Link` header, any other header name that header's value.
 * @see https://www.rfc-editor.org/rfc/rfc8288
 */
import LinkHeader from 'http-link-header';
import type { Place } from './description.ts';
import { resolvePointer } from './pointer.ts';

/** What a place is read from: a response's parsed body and its headers. */
export interface Answered {
  json: unknown;
  headers: Headers;
}

/** Whether the place is a header. */
const inHeader = (place: Place): place is { header: string } => typeof place !== 'string';

/**
 * The value at `place` in a response, or undefined when nothing is there. A `Link` header gives
 * the URI of its `rel="next"` link (parsed by `http-link-header`: quoted and unquoted `rel`,
 * several relations in one, commas inside `<…>`); a header the response does not carry is nothing.
 */
export function readPlace(response: Answered, place: Place): unknown {
  if (!inHeader(place)) return resolvePointer(response.json, place);
  const value = response.headers.get(place.header);
  if (value === null) return undefined;
  if (place.header.toLowerCase() !== 'link') return value;
  try {
    return LinkHeader.parse(value).rel('next')[0]?.uri;
  } catch {
    // @note A Link header it cannot parse holds no next link it can follow: as if none.
    return undefined;
  }
}

/** The place in words, for messages: `/next_cursor`, `the Link header's rel="next"`. */
export function placeName(place: Place): string {
  if (!inHeader(place)) return place || '(the body)';
  return place.header.toLowerCase() === 'link'
    ? `the ${place.header} header's rel="next"`
    : `the ${place.header} header`;
}

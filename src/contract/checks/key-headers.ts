/** The wrongly formed key headers the suite sends (the spec: "a wrongly formed key header gets 401"). */
export function malformedKeyHeaders(key: string): Array<[string, Record<string, string>]> {
  return [
    ['an empty Authorization header', { authorization: '' }],
    ['another scheme', { authorization: `Basic ${key}` }],
    // @note The form is `Bearer <API_KEY>` (§5.2): the key alone is wrongly formed, valid as it is.
    ['the key alone, without the Bearer scheme', { authorization: key }],
    ['Bearer without a token', { authorization: 'Bearer' }],
    ['extra parts', { authorization: `Bearer ${key} extra` }],
    ['an empty X-Answers-API-Key', { 'x-answers-api-key': '' }],
  ];
}

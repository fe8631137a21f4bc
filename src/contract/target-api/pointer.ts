/**
 * JSON Pointers (RFC 6901): where a target description says a value is in a response.
 * @see https://www.rfc-editor.org/rfc/rfc6901
 */

/** Whether `pointer` is a well-formed JSON Pointer: empty (the whole value) or `/`-separated tokens. */
export function isPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~(?![01])/.test(pointer));
}

/** The reference tokens of a pointer, unescaped (`~1` is `/`, `~0` is `~`). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The value `pointer` names in `value`, or `undefined` when it names nothing there. */
export function resolvePointer(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of tokens(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

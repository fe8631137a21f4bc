/**
 * Opaque pagination cursors. A cursor carries where the last page ended and a fingerprint of the
 * list it belongs to (operation, account, collection, order or search query), sealed with a
 * checksum, so a tampered, truncated or foreign cursor is refused instead of silently paging
 * through something else.
 * @see docs/spec-gaps.md GAP-PAGE-PARAMS
 */

/** Where a keyset page ended: the creation date (RFC 3339, fixed width) and id of its last item. */
export interface KeysetPosition {
  created_at: string;
  id: string;
}

interface Payload {
  /** Fingerprint of the list's scope. */
  s: string;
  /** Keyset position (lists). */
  k?: [string, string];
  /** Offset (search results, which are ranked, not keyed). */
  n?: number;
}

/** FNV-1a, 32 bits, as base-36: a fingerprint, not a secret. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

function toBase64Url(text: string): string {
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return atob(text.replaceAll('-', '+').replaceAll('_', '/'));
}

/** Cursor codec bound to a secret, so cursors of one mock instance are not forged by hand. */
export class CursorCodec {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  encodeKeyset(scope: string, position: KeysetPosition): string {
    return this.#seal({ s: fingerprint(scope), k: [position.created_at, position.id] });
  }

  encodeOffset(scope: string, offset: number): string {
    return this.#seal({ s: fingerprint(scope), n: offset });
  }

  /** The keyset position, or undefined when the cursor is not a valid cursor of `scope`. */
  decodeKeyset(scope: string, cursor: string): KeysetPosition | undefined {
    const payload = this.#open(cursor);
    if (!payload || payload.s !== fingerprint(scope) || !Array.isArray(payload.k)) return undefined;
    const [created_at, id] = payload.k;
    if (typeof created_at !== 'string' || typeof id !== 'string') return undefined;
    return { created_at, id };
  }

  /** The offset, or undefined when the cursor is not a valid cursor of `scope`. */
  decodeOffset(scope: string, cursor: string): number | undefined {
    const payload = this.#open(cursor);
    if (!payload || payload.s !== fingerprint(scope)) return undefined;
    const { n } = payload;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  }

  #seal(payload: Payload): string {
    const body = toBase64Url(JSON.stringify(payload));
    return `${body}.${fingerprint(this.#secret + body)}`;
  }

  #open(cursor: string): Payload | undefined {
    const dot = cursor.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const body = cursor.slice(0, dot);
    if (cursor.slice(dot + 1) !== fingerprint(this.#secret + body)) return undefined;
    try {
      const value: unknown = JSON.parse(fromBase64Url(body));
      return typeof value === 'object' && value !== null ? (value as Payload) : undefined;
    } catch {
      return undefined;
    }
  }
}

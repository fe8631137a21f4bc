/**
 * The globals the core may use: the web-standard ones Node and browsers both have, declared as
 * far as the core uses them. `tsconfig.core.json` compiles `src/core` (and what it imports) with
 * these and no DOM or Node types, so a call that only one runtime has (`document`, `Buffer`,
 * `process`) fails to compile there. `setImmediate` is Node's alone: declared possibly absent, so
 * a use must check for it first.
 */

declare function setTimeout(callback: (...args: never[]) => void, ms?: number): unknown;
declare function setInterval(callback: (...args: never[]) => void, ms?: number): unknown;
declare function clearInterval(id: unknown): void;
declare const setImmediate: ((callback: (...args: never[]) => void) => unknown) | undefined;
declare const performance: { now(): number };
declare function structuredClone<T>(value: T): T;
declare function atob(data: string): string;
declare function btoa(data: string): string;

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array): string;
}

declare class URLSearchParams {
  constructor(init?: string | Record<string, string> | Array<[string, string]>);
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  forEach(callback: (value: string, key: string) => void): void;
  toString(): string;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}

declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly host: string;
  readonly href: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

declare class Headers {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, key: string) => void): void;
}

// js-yaml 3 ships no types (and @types/js-yaml is not installed): the one call the tests make.
declare module 'js-yaml' {
  /** Parses YAML 1.2 with merge keys (`<<`), without custom tags. */
  export function safeLoad(text: string): unknown;
}

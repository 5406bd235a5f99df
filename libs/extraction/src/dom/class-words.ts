import { DomElement } from './dom.types';

/**
 * The words of an element's class and id, lower case: "priceBlockStrikePriceString
 * a-text-strike" → price, block, strike, string, a, text. Heuristics test words, not
 * substrings, so "wrapper" never reads as "per" nor "canvas" as "was".
 */
export function classWords(element: DomElement): string[] {
  return wordsOf(`${element.className ?? ''} ${element.id ?? ''}`);
}

/** The words of class or id names (see classWords). */
export function wordsOf(names: string): string[] {
  if (!names.trim()) return [];
  return names
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function hasClassWord(element: DomElement, words: ReadonlySet<string>): boolean {
  return classWords(element).some((word) => words.has(word));
}

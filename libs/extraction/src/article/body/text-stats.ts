import { DomElement, DomNode, TEXT_NODE, isElement } from '../../dom';

/** Text measures of one element's subtree, gathered in a single bottom-up pass. */
export interface TextStats {
  /** Characters of text, whitespace runs counted as one. */
  chars: number;
  /** Of which inside links. */
  linkChars: number;
  commas: number;
}

export type StatsIndex = Map<DomElement, TextStats>;

export const COMMAS = /[,，、،]/g;

export function collectTextStats(root: DomElement): StatsIndex {
  const index: StatsIndex = new Map();
  const visit = (node: DomNode, inLink: boolean): TextStats => {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? '';
      const chars = text.replace(/\s+/g, ' ').length;
      return { chars, linkChars: inLink ? chars : 0, commas: text.match(COMMAS)?.length ?? 0 };
    }
    const stats: TextStats = { chars: 0, linkChars: 0, commas: 0 };
    if (!isElement(node)) return stats;
    const linked = inLink || node.localName === 'a';
    for (let child = node.firstChild; child; child = child.nextSibling) {
      const sub = visit(child, linked);
      stats.chars += sub.chars;
      stats.linkChars += sub.linkChars;
      stats.commas += sub.commas;
    }
    index.set(node, stats);
    return stats;
  };
  visit(root, false);
  return index;
}

export function linkDensity(stats: TextStats | undefined): number {
  return stats && stats.chars ? stats.linkChars / stats.chars : 0;
}

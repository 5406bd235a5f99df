import { DomDocument, DomElement } from '../../dom/dom-node';
import { removeBoilerplate } from './boilerplate';
import { bestCandidate, contentBlocks, scoreCandidates } from './main-content';
import { collectTextStats } from './text-stats';

export interface ArticleBody {
  /** The elements holding the body, in page order (detached from nothing: the document is pruned in place). */
  blocks: DomElement[];
}

/** Share of the page's paragraph text that makes a container too important to drop for its class. */
const ESSENTIAL_SHARE = 0.5;

function paragraphChars(root: DomElement): number {
  let chars = 0;
  for (const p of Array.from(root.querySelectorAll('p'))) chars += (p.textContent ?? '').length;
  return chars;
}

/** Finds the article body in the page; prunes the document in place. */
export function findArticleBody(document: DomDocument): ArticleBody | undefined {
  const root = document.body ?? document.documentElement;
  const pageProse = paragraphChars(root);
  removeBoilerplate(root, (element) => pageProse > 0 && paragraphChars(element) > pageProse * ESSENTIAL_SHARE);
  const stats = collectTextStats(root);
  const scores = scoreCandidates(root, stats);
  const top = bestCandidate(scores);
  if (!top) return undefined;
  return { blocks: contentBlocks(top, scores, stats) };
}

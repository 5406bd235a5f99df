import { DomDocument, DomElement } from '../../dom';
import { removeBoilerplate } from './boilerplate';
import { cleanContent } from './clean-content';
import { bestCandidate, climbToContainer, contains, contentBlocks, proseChars, scoreCandidates } from './main-content';
import { collectTextStats } from './text-stats';

export interface ArticleBody {
  /** The elements holding the body, in page order (detached from nothing: the document is pruned in place). */
  blocks: DomElement[];
}

/** Share of the page's prose that makes a container too important to drop for its class. */
const ESSENTIAL_SHARE = 0.5;

/** Finds the article body in the page; prunes the document in place. */
export function findArticleBody(document: DomDocument): ArticleBody | undefined {
  const root = document.body ?? document.documentElement;
  // Containers of what looks like the article before pruning are never pruned for their class.
  const rawStats = collectTextStats(root);
  const prose = proseChars(root, rawStats);
  const pageProse = prose.get(root) ?? 0;
  const rawScores = scoreCandidates(root, rawStats);
  const rawTop = bestCandidate(rawScores);
  const likelyArticle = rawTop && climbToContainer(rawTop, rawScores);
  removeBoilerplate(root, (element) => (likelyArticle !== undefined && contains(element, likelyArticle)) || (prose.get(element) ?? 0) > pageProse * ESSENTIAL_SHARE);
  const stats = collectTextStats(root);
  const scores = scoreCandidates(root, stats);
  const top = bestCandidate(scores);
  if (!top) return undefined;
  const blocks = contentBlocks(climbToContainer(top, scores), scores, stats);
  cleanContent(blocks);
  return { blocks };
}

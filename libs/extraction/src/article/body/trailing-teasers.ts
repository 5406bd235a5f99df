import { DomElement, textOf } from '../../dom';
import { contains } from './main-content';

/**
 * Below this much prose the likely article may be a listing's intro or one of its teasers: the
 * cards after it are then the page's content, not furniture.
 */
const ARTICLE_MIN_PROSE_CHARS = 1000;
/** A teaser card: a title link and a line or two of excerpt, a date, a category. */
const CARD_MAX_CHARS = 500;
const TITLE_LINK_MIN_WORDS = 3;
const GRID_MIN_CARDS = 3;
/** Share of a grid's children that are cards (a heading or a "more" button may sit among them). */
const GRID_CARDS_SHARE = 0.66;

/**
 * A title link: a few words standing alone in their element (a heading, a "title" div). A link
 * inside a sentence is a pointer within prose (a list of steps, each opening with a linked phrase).
 */
function isTitleLink(link: DomElement): boolean {
  const text = textOf(link);
  return text.split(' ').length >= TITLE_LINK_MIN_WORDS && link.parentElement !== null && textOf(link.parentElement) === text;
}

/** Where a teaser card points: its title link, or undefined when it has none. */
function cardTarget(card: DomElement): string | undefined {
  if (textOf(card).length > CARD_MAX_CHARS) return undefined;
  const title = card.querySelectorAll('a[href]').find(isTitleLink);
  return title?.getAttribute('href') ?? undefined;
}

/** Cards of one kind (same tag), each pointing to another page: related stories, "Latest News". */
function isTeaserGrid(element: DomElement): boolean {
  const children = element.children;
  if (children.length < GRID_MIN_CARDS) return false;
  const targets = new Set<string>();
  let cards = 0;
  for (const child of children) {
    const target = cardTarget(child);
    if (target === undefined || child.localName !== children[0].localName) continue;
    targets.add(target);
    cards++;
  }
  return cards >= GRID_MIN_CARDS && targets.size === cards && cards >= children.length * GRID_CARDS_SHARE;
}

/** The teaser grids inside `scope`, outermost only. */
function teaserGrids(scope: DomElement): DomElement[] {
  if (isTeaserGrid(scope)) return [scope];
  return Array.from(scope.children).flatMap(teaserGrids);
}

/**
 * A news site's page built of slots holds the article's slot and, after it, a slot of teasers
 * for other stories (each card a title link, a category, a date and a clipped excerpt): the
 * chosen container holds both, and the excerpts read as prose. When the likely article holds
 * long prose, a grid of teaser cards that comes after it (outside it) in the chosen body,
 * and holds less text than the article's prose, is furniture. A listing's teasers are its
 * content: there no long article precedes them, or they outweigh it. Grids inside the likely
 * article are left alone (a post's own list of resources reads the same).
 */
export function removeTrailingTeasers(blocks: readonly DomElement[], likelyArticle: DomElement | undefined, articleProse: number): void {
  if (!likelyArticle || articleProse < ARTICLE_MIN_PROSE_CHARS) return;
  const articleBlock = blocks.findIndex((block) => contains(block, likelyArticle));
  if (articleBlock < 0) return;
  const doomed: DomElement[] = [];
  for (let node: DomElement | null = likelyArticle; node && node !== blocks[articleBlock]; node = node.parentElement) {
    for (let sibling = node.nextElementSibling; sibling; sibling = sibling.nextElementSibling) doomed.push(...teaserGrids(sibling));
  }
  // the chosen body may be a run of sibling blocks: the article's, then the slots after it
  for (const block of blocks.slice(articleBlock + 1)) doomed.push(...teaserGrids(block));
  for (const grid of doomed) if (textOf(grid).length < articleProse) grid.remove();
}

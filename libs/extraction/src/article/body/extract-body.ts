import { DomDocument, DomElement, textOf } from '../../dom';
import type { BodyChoiceModel } from '../../model/extraction-models';
import { BodyCandidate, bodyCandidates, chooseBody } from './body-candidates';
import { isComment, removeBoilerplate, unnameBuilderWidgets } from './boilerplate';
import { cleanContent, isSignupBox } from './clean-content';
import { bestCandidate, climbToContainer, contains, contentBlocks, proseChars, scoreCandidates, withSiblingSections } from './main-content';
import { StatsIndex, collectTextStats, linkDensity } from './text-stats';
import { removeTrailingTeasers } from './trailing-teasers';

export interface ArticleBody {
  /** The elements holding the body, in page order, furniture inside them removed. */
  blocks: DomElement[];
  /** Share of the page's text (before pruning) inside links: high on listings and link hubs. */
  pageLinkDensity: number;
  /** Every candidate weighed (the rules' choice first), when asked for; their blocks are not cleaned yet (clean them sparing `core`). */
  candidates?: BodyCandidate[];
  /** The likely article's strong prose containers and what holds them: never pruned or cleaned away for their class. */
  core: Set<DomElement>;
}

/** Share of the page's prose that makes a container too important to drop for its class. */
const ESSENTIAL_SHARE = 0.5;

/** A block inside the likely article with this much prose, nearly all of its text, is the article's, whatever its class. */
const PROSE_BLOCK_MIN_CHARS = 400;
const PROSE_BLOCK_SHARE = 0.7;

/** A form's own controls: their words (a select's hundred options) are gone before cleaning judges the form. */
const FORM_CONTROLS = 'select, textarea, label, button, script, style';

/**
 * A form whose text, its controls' taken out, is a sign-up box's (a lead form's "Fill out the form to get our
 * ebook" and its hidden fields' notes): the options of its selects made it look like 1,600 characters of prose.
 */
function isShortForm(element: DomElement): boolean {
  if (element.localName !== 'form') return false;
  const controls = element.querySelectorAll(FORM_CONTROLS);
  const outermost = controls.filter((control) => !controls.some((other) => other !== control && contains(other, control)));
  return isSignupBox(textOf(element).length - outermost.reduce((sum, control) => sum + textOf(control).length, 0), true);
}

/**
 * What pruning and cleaning must spare: the likely article (the best candidate before pruning,
 * climbed), everything that holds it, and inside it the blocks made of prose and what holds
 * them (not readers' comments, which the likely article often holds when they outweigh it). Page builders name every block of an article a "widget" (Elementor's
 * `elementor-widget-text-editor` > `elementor-widget-container` > paragraphs): pruned by that
 * name, the body was empty. A sign-up box inside the article is not spared, though its consent
 * text reads as prose (clean-content.ts).
 */
function articleCore(likelyArticle: DomElement | undefined, prose: Map<DomElement, number>, stats: StatsIndex): Set<DomElement> {
  const core = new Set<DomElement>();
  if (!likelyArticle) return core;
  for (let node: DomElement | null = likelyArticle; node; node = node.parentElement) core.add(node);
  for (const [element, chars] of prose) {
    if (chars < PROSE_BLOCK_MIN_CHARS || chars < (stats.get(element)?.chars ?? 0) * PROSE_BLOCK_SHARE || !contains(likelyArticle, element)) continue;
    const path: DomElement[] = [];
    for (let node: DomElement | null = element; node && !core.has(node); node = node.parentElement) path.push(node);
    if (!path.some((node) => isComment(node) || isSignupBox(stats.get(node)?.chars ?? 0, node.querySelector('form') !== null) || isShortForm(node))) for (const node of path) core.add(node);
  }
  return core;
}

/** The page's own schema.org mark of its body, when it holds prose. */
const MARKED_BODY_MIN_CHARS = 200;

function markedBody(root: DomElement, stats: StatsIndex): DomElement | undefined {
  const marked = root.querySelector('[itemprop="articleBody"]');
  return marked && (stats.get(marked)?.chars ?? 0) >= MARKED_BODY_MIN_CHARS ? marked : undefined;
}

/**
 * Finds the article body in the page; prunes the document in place. With a fitted `choice`
 * the model may replace the hand-written choice by another candidate; `withCandidates` returns
 * them all (for training), and the caller cleans and renders the others.
 */
export function findArticleBody(document: DomDocument, choice?: BodyChoiceModel, withCandidates = false): ArticleBody | undefined {
  const root = document.body ?? document.documentElement;
  // Containers of what looks like the article before pruning are never pruned for their class.
  const rawStats = collectTextStats(root);
  const prose = proseChars(root, rawStats);
  const pageProse = prose.get(root) ?? 0;
  unnameBuilderWidgets(root, prose);
  const rawScores = scoreCandidates(root, rawStats);
  const rawTop = bestCandidate(rawScores);
  const likelyArticle = rawTop && climbToContainer(rawTop, rawScores);
  const core = articleCore(likelyArticle, prose, rawStats);
  const holdsMostProse = (element: DomElement) => (prose.get(element) ?? 0) > pageProse * ESSENTIAL_SHARE;
  const holdsArticle = (element: DomElement) => (likelyArticle !== undefined && contains(element, likelyArticle)) || holdsMostProse(element);
  // On a forum the likely article is a post, named a comment like the rest of the thread.
  let articleIsComment = false;
  for (let node = likelyArticle ?? null; node && !articleIsComment; node = node.parentElement) articleIsComment = isComment(node);
  removeBoilerplate(root, holdsArticle, (element) => core.has(element), holdsMostProse, !articleIsComment);
  const stats = collectTextStats(root);
  const scores = scoreCandidates(root, stats);
  const top = bestCandidate(scores);
  if (!top) return undefined;
  const marked = markedBody(root, stats);
  const rule = marked ? [marked] : contentBlocks(climbToContainer(top, scores), scores, stats);
  // The page's own mark of its body is followed as it is: the model re-ranks the rules' guesses only. Marked pages
  // still give training rows: their candidates hold the margin's guard (the article benchmark marks many of its bodies).
  const candidates = (choice && !marked) || withCandidates ? bodyCandidates(root, rule, scores, stats) : undefined;
  // Sibling sections of the chosen blocks' kind join after the choice: the model weighs the scoring's containers as they are.
  const blocks = marked ? rule : withSiblingSections(choice && candidates ? chooseBody(candidates, choice).blocks : rule, stats);
  removeTrailingTeasers(blocks, likelyArticle, likelyArticle ? (prose.get(likelyArticle) ?? 0) : 0);
  cleanContent(blocks, core);
  return { blocks, pageLinkDensity: linkDensity(rawStats.get(root)), candidates: withCandidates ? candidates : undefined, core };
}

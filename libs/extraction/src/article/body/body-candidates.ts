import { DomElement } from '../../dom';
import type { BodyChoiceModel } from '../../model/extraction-models';
import { FeatureValues, predictProbability } from '../../model/logistic';
import { classWeight, climbToContainer, contains, contentBlocks } from './main-content';
import { StatsIndex, TextStats } from './text-stats';

/**
 * The body's block choice as a re-ranking (issue 19): the hand-written choice (Readability's
 * best candidate, climbed, with its siblings) is one candidate; the next-best scored
 * containers, climbed the same way, and the page's own <main>/<article> are the others. A
 * fitted model rates each from its features below; an alternative replaces the hand-written
 * choice only when the model prefers it by the fitted margin, so the rules stay the default.
 */
export interface BodyCandidate {
  blocks: DomElement[];
  features: FeatureValues;
}

/** Scored containers tried besides the rules' choice (each climbed and given its siblings). */
const RUNNERS_UP = 5;

function sameBlocks(a: DomElement[], b: DomElement[]): boolean {
  return a.length === b.length && a.every((element, i) => element === b[i]);
}

function sum(blocks: DomElement[], stats: StatsIndex, key: keyof TextStats): number {
  let total = 0;
  for (const block of blocks) total += stats.get(block)?.[key] ?? 0;
  return total;
}

/** Characters of text before the element in document order (from the stats: no walk of the page). */
function charsBefore(element: DomElement, stats: StatsIndex): number {
  let before = 0;
  for (let node: DomElement | null = element; node?.parentElement; node = node.parentElement) {
    // loose text between siblings is left out: the measure places blocks, it need not be exact
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) before += stats.get(sibling)?.chars ?? 0;
  }
  return before;
}

function countTags(blocks: DomElement[], tags: readonly string[]): number {
  let count = 0;
  for (const block of blocks) count += block.querySelectorAll(tags.join(', ')).length + (tags.includes(block.localName) ? 1 : 0);
  return count;
}

interface PageContext {
  stats: StatsIndex;
  scores: Map<DomElement, number>;
  topScore: number;
  pageChars: number;
  pageParagraphs: number;
  /** The page's first <h1> after pruning, and the text before it. */
  h1?: DomElement;
  h1Before: number;
}

/** What a candidate holds, summed over its blocks. */
interface Measures {
  chars: number;
  linkChars: number;
  commas: number;
  paragraphs: number;
  listItems: number;
}

function measure(blocks: DomElement[], stats: StatsIndex): Measures {
  return { chars: sum(blocks, stats, 'chars'), linkChars: sum(blocks, stats, 'linkChars'), commas: sum(blocks, stats, 'commas'), paragraphs: countTags(blocks, ['p']), listItems: countTags(blocks, ['li']) };
}

/**
 * The features of one candidate: how much of the page it holds, how it reads, where it sits,
 * and how it differs from the rules' choice (`rule`): what a wider candidate adds is judged
 * on its own (added prose with few links is the article's missed part; an added link list is
 * the page's navigation).
 */
function candidateFeatures(blocks: DomElement[], rule: DomElement[], ruleMeasures: Measures, page: PageContext): FeatureValues {
  const { stats, scores } = page;
  const own = measure(blocks, stats);
  const { chars, paragraphs } = own;
  const head = blocks[0];
  const bestScore = Math.max(0, ...blocks.map((b) => scores.get(b) ?? 0));
  const start = charsBefore(head, stats);
  const weight = classWeight(head);
  const tag = head.localName;
  const holdsRule = rule.every((r) => blocks.some((b) => contains(b, r)));
  const insideRule = blocks.every((b) => rule.some((r) => contains(r, b)));
  const h1Inside = page.h1 !== undefined && blocks.some((b) => contains(b, page.h1!));
  const addedChars = holdsRule ? Math.max(0, chars - ruleMeasures.chars) : 0;
  return {
    rule: sameBlocks(blocks, rule) ? 1 : 0,
    holdsRule: holdsRule ? 1 : 0,
    insideRule: insideRule ? 1 : 0,
    charsVsRule: Math.log2((chars + 100) / (ruleMeasures.chars + 100)),
    addedShare: chars ? addedChars / chars : 0,
    addedLinkDensity: addedChars ? Math.max(0, own.linkChars - ruleMeasures.linkChars) / addedChars : 0,
    addedCommasPer100: addedChars ? (100 * Math.max(0, own.commas - ruleMeasures.commas)) / addedChars : 0,
    addedCharsPerParagraph: addedChars ? Math.log10(1 + addedChars / Math.max(1, paragraphs - ruleMeasures.paragraphs)) : 0,
    addedListItemShare: addedChars ? Math.max(0, own.listItems - ruleMeasures.listItems) / (Math.max(0, paragraphs - ruleMeasures.paragraphs) + Math.max(0, own.listItems - ruleMeasures.listItems) + 1) : 0,
    scoreShare: page.topScore > 0 ? bestScore / page.topScore : 0,
    pageShare: page.pageChars ? chars / page.pageChars : 0,
    logChars: Math.log10(1 + chars),
    linkDensity: chars ? own.linkChars / chars : 0,
    commasPer100: chars ? (100 * own.commas) / chars : 0,
    paragraphShare: page.pageParagraphs ? paragraphs / page.pageParagraphs : 0,
    charsPerParagraph: Math.log10(1 + chars / Math.max(1, paragraphs)),
    listItemShare: own.listItems / (paragraphs + own.listItems + 1),
    headings: Math.log2(1 + countTags(blocks, ['h2', 'h3', 'h4', 'h5', 'h6'])),
    blocks: Math.log2(blocks.length),
    contentClass: weight > 0 ? 1 : 0,
    furnitureClass: weight < 0 ? 1 : 0,
    tagArticle: tag === 'article' ? 1 : 0,
    tagMain: tag === 'main' || head.getAttribute('role') === 'main' ? 1 : 0,
    tagSection: tag === 'section' ? 1 : 0,
    startShare: page.pageChars ? start / page.pageChars : 0,
    endShare: page.pageChars ? (page.pageChars - start - chars) / page.pageChars : 0,
    h1Inside: h1Inside ? 1 : 0,
    h1Missing: page.h1 ? 0 : 1,
    // where the body starts against the title: an article's text follows its <h1> closely
    h1Distance: page.h1 && !h1Inside && page.pageChars ? (start - page.h1Before) / page.pageChars : 0,
  };
}

/**
 * The candidates, the rules' choice first. `scores` and `stats` are the pruned page's; `rule`
 * the blocks the hand-written rules chose.
 */
export function bodyCandidates(root: DomElement, rule: DomElement[], scores: Map<DomElement, number>, stats: StatsIndex): BodyCandidate[] {
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  const h1 = root.querySelector('h1') ?? undefined;
  const page: PageContext = {
    stats,
    scores,
    topScore: ranked[0]?.[1] ?? 0,
    pageChars: stats.get(root)?.chars ?? 0,
    pageParagraphs: root.querySelectorAll('p').length,
    h1,
    h1Before: h1 ? charsBefore(h1, stats) : 0,
  };
  const choices: DomElement[][] = [rule];
  const add = (blocks: DomElement[]) => {
    if (blocks.length && (stats.get(blocks[0])?.chars ?? 0) > 0 && !choices.some((c) => sameBlocks(c, blocks))) choices.push(blocks);
  };
  for (const [element] of ranked.slice(0, RUNNERS_UP + 1)) add(contentBlocks(climbToContainer(element, scores), scores, stats));
  const ruleParent = rule[0]?.parentElement;
  if (ruleParent && ruleParent !== root) add([ruleParent]);
  for (const landmark of root.querySelectorAll('main, article, [role="main"]')) add([landmark]);
  const ruleMeasures = measure(rule, stats);
  return choices.map((blocks) => ({ blocks, features: candidateFeatures(blocks, rule, ruleMeasures, page) }));
}

/** The model's choice: the rules' candidate unless another beats it by the margin. */
export function chooseBody(candidates: BodyCandidate[], choice: BodyChoiceModel): BodyCandidate {
  const ruleScore = predictProbability(choice.model, candidates[0].features);
  let best = candidates[0];
  let bestScore = ruleScore + choice.margin;
  for (const candidate of candidates.slice(1)) {
    const score = predictProbability(choice.model, candidate.features);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

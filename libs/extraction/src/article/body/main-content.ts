import { DomElement, TEXT_NODE, isElement, textOf } from '../../dom';
import { classAndCompoundWords, isComment } from './boilerplate';
import { COMMAS, StatsIndex, linkDensity } from './text-stats';

/** Blocks whose own text is scored as prose (a div counts when it holds no other block). */
const PROSE_TAGS = new Set(['p', 'pre', 'td', 'blockquote']);
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody',
  'thead', 'tfoot', 'tr', 'td', 'th', 'ul', 'summary', 'caption',
]);

const POSITIVE_WORDS = new Set(['article', 'body', 'content', 'entry', 'main', 'page', 'post', 'text', 'blog', 'story', 'prose']);
const NEGATIVE_WORDS = new Set([
  'comment', 'comments', 'footer', 'footnote', 'masthead', 'media', 'meta', 'outbrain', 'promo', 'related', 'scroll', 'share',
  'shoutbox', 'sidebar', 'skyscraper', 'sponsor', 'shopping', 'tags', 'tool', 'widget', 'nav', 'menu', 'teaser',
]);
const MIN_PROSE_CHARS = 25;

/** +25 for a class or id that says "content", −25 for one that says "furniture". */
export function classWeight(element: DomElement): number {
  const words = classAndCompoundWords(element);
  let weight = 0;
  if (words.some((w) => POSITIVE_WORDS.has(w))) weight += 25;
  if (words.some((w) => NEGATIVE_WORDS.has(w))) weight -= 25;
  return weight;
}

function tagWeight(tag: string): number {
  if (tag === 'div' || tag === 'article' || tag === 'main') return 5;
  if (tag === 'pre' || tag === 'td' || tag === 'blockquote' || tag === 'section') return 3;
  if (['address', 'ol', 'ul', 'dl', 'dd', 'dt', 'li', 'form'].includes(tag)) return -3;
  if (/^h[1-6]$/.test(tag) || tag === 'th') return -5;
  return 0;
}

function hasBlockChild(element: DomElement): boolean {
  const children = element.children;
  for (let i = 0; i < children.length; i++) if (BLOCK_TAGS.has(children[i].localName)) return true;
  return false;
}

export function isProse(element: DomElement): boolean {
  const tag = element.localName;
  return PROSE_TAGS.has(tag) || (tag === 'div' && !hasBlockChild(element));
}

/**
 * Readability's candidate scoring: each prose block gives 1 + its commas + a point per 100
 * characters (at most 3) to its parent, half to its grandparent and less further up; a
 * candidate's score is then discounted by its link density. The best candidate is the
 * article's container.
 */
export function scoreCandidates(root: DomElement, stats: StatsIndex): Map<DomElement, number> {
  const scores = new Map<DomElement, number>();
  const credit = (parent: DomElement | null, chars: number, commas: number) => {
    if (chars < MIN_PROSE_CHARS) return;
    const points = 1 + commas + Math.min(Math.floor(chars / 100), 3);
    let ancestor = parent;
    for (let level = 0; ancestor && level < 5; level++, ancestor = ancestor.parentElement) {
      if (!scores.has(ancestor)) scores.set(ancestor, tagWeight(ancestor.localName) + classWeight(ancestor));
      const share = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(ancestor, scores.get(ancestor)! + points / share);
    }
  };
  const visit = (element: DomElement) => {
    if (isProse(element)) {
      const own = stats.get(element);
      if (own) credit(element.parentElement, own.chars, own.commas);
    }
    forEachLooseRun(element, stats, (chars, commas) => credit(element, chars, commas));
    for (let child = element.firstChild; child; child = child.nextSibling) if (isElement(child)) visit(child);
  };
  visit(root);
  for (const [element, score] of scores) scores.set(element, score * (1 - linkDensity(stats.get(element))));
  return scores;
}

/**
 * Text written straight into a block that also holds other blocks ("<div>Intro <b>x</b><div>…")
 * is prose too: each run between child blocks counts as a paragraph of that block.
 */
export function forEachLooseRun(element: DomElement, stats: StatsIndex, onRun: (chars: number, commas: number) => void): void {
  if (!BLOCK_TAGS.has(element.localName) || isProse(element)) return;
  let chars = 0;
  let commas = 0;
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (isElement(child) && (BLOCK_TAGS.has(child.localName) || child.localName === 'br')) {
      if (child.localName === 'br' && child.nextSibling && !(isElement(child.nextSibling) && child.nextSibling.localName === 'br')) continue;
      onRun(chars, commas);
      chars = commas = 0;
    } else if (isElement(child)) {
      const sub = stats.get(child);
      if (sub && child.localName !== 'a') {
        chars += sub.chars;
        commas += sub.commas;
      }
    } else if (child.nodeType === TEXT_NODE) {
      const text = child.textContent ?? '';
      chars += text.trim() ? text.replace(/\s+/g, ' ').length : 0;
      commas += text.match(COMMAS)?.length ?? 0;
    }
  }
  onRun(chars, commas);
}

/**
 * Readability's climb: when the best candidate is one of several similar siblings (a paragraph
 * per wrapper), or its parent scores higher, the article is the ancestor that holds them.
 */
export function climbToContainer(top: DomElement, scores: Map<DomElement, number>): DomElement {
  const topScore = scores.get(top) ?? 0;
  const peers = [...scores].filter(([element, score]) => element !== top && score >= topScore * 0.75).sort((a, b) => b[1] - a[1]).slice(0, 4);
  if (peers.length >= 3) {
    for (let ancestor = top.parentElement; ancestor && ancestor.localName !== 'body'; ancestor = ancestor.parentElement) {
      if (peers.filter(([peer]) => contains(ancestor, peer)).length >= 3) {
        top = ancestor;
        break;
      }
    }
  }
  let lastScore = scores.get(top) ?? 0;
  const floor = lastScore / 3;
  for (let parent = top.parentElement; parent && parent.localName !== 'body'; parent = parent.parentElement) {
    const score = scores.get(parent);
    if (score === undefined) continue;
    if (score < floor) break;
    if (score > lastScore) return parent;
    lastScore = score;
  }
  return top;
}

/**
 * An article cut into chunks by ads or embeds repeats its container's class: the chunks are
 * the elements of exactly that class under the container's grandparent. A page builder's chunk
 * wraps its text in layers of its own ("article-card > text-block > … > rich-text"): the class
 * that repeats is the outermost wrapper's, so that one is tried too.
 */
function articleChunks(top: DomElement, stats: StatsIndex): DomElement[] {
  const chunks = chunksOfClass(top);
  if (chunks.length > 1) return chunks;
  const wrapper = outermostWrapper(top, stats);
  return wrapper === top ? chunks : chunksOfClass(wrapper);
}

/** A wrapper adding this share of text or less (an icon's label, a stray space) holds nothing but its child. */
const WRAPPER_EXTRA_SHARE = 0.02;

/** The outermost ancestor of `element` that holds no text besides it. */
function outermostWrapper(element: DomElement, stats: StatsIndex): DomElement {
  const chars = stats.get(element)?.chars ?? 0;
  let wrapper = element;
  for (let parent = element.parentElement; parent && parent.localName !== 'body'; parent = parent.parentElement) {
    if ((stats.get(parent)?.chars ?? 0) > chars * (1 + WRAPPER_EXTRA_SHARE)) break;
    wrapper = parent;
  }
  return wrapper;
}

function chunksOfClass(top: DomElement): DomElement[] {
  const topClass = top.getAttribute('class');
  const scope = top.parentElement?.parentElement;
  if (!topClass || !scope) return [];
  const chunks: DomElement[] = [];
  const visit = (element: DomElement) => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      if (child.localName === top.localName && child.getAttribute('class') === topClass) chunks.push(child);
      else visit(child);
    }
  };
  visit(scope);
  return chunks;
}

export function contains(ancestor: DomElement, element: DomElement): boolean {
  for (let node: DomElement | null = element; node; node = node.parentElement) if (node === ancestor) return true;
  return false;
}

export function bestCandidate(scores: Map<DomElement, number>): DomElement | undefined {
  let best: DomElement | undefined;
  let bestScore = -Infinity;
  for (const [element, score] of scores) {
    if (score > bestScore) {
      best = element;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The top candidate and its siblings that look like continuations: scored well enough,
 * or plain paragraphs of prose with few links.
 */
export function contentBlocks(top: DomElement, scores: Map<DomElement, number>, stats: StatsIndex): DomElement[] {
  const parent = top.parentElement;
  if (!parent) return [top];
  const chunks = articleChunks(top, stats);
  if (chunks.length > 1) return chunks;
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const topClass = top.getAttribute('class');
  const blocks: DomElement[] = [];
  for (const sibling of Array.from(parent.children)) {
    if (sibling === top) {
      blocks.push(sibling);
      continue;
    }
    const bonus = topClass && sibling.getAttribute('class') === topClass ? topScore * 0.2 : 0;
    const score = scores.get(sibling);
    if (score !== undefined && score + bonus >= threshold) blocks.push(sibling);
    else if (sibling.localName === 'p') {
      const own = stats.get(sibling);
      const chars = own?.chars ?? 0;
      const density = linkDensity(own);
      const text = chars > 0 && chars <= 80 ? (sibling.textContent ?? '').trim() : '';
      if ((chars > 80 && density < 0.25) || (text && density === 0 && /[.!?]$/.test(text))) blocks.push(sibling);
    }
  }
  return blocks;
}

/** Characters of prose (paragraphs, loose text runs) under each element. */
export function proseChars(root: DomElement, stats: StatsIndex): Map<DomElement, number> {
  const totals = new Map<DomElement, number>();
  const add = (from: DomElement | null, chars: number) => {
    if (chars < MIN_PROSE_CHARS) return;
    for (let ancestor = from; ancestor; ancestor = ancestor.parentElement) totals.set(ancestor, (totals.get(ancestor) ?? 0) + chars);
  };
  const visit = (element: DomElement) => {
    if (isProse(element)) {
      const own = stats.get(element);
      if (own && linkDensity(own) < 0.3) add(element, own.chars);
    }
    forEachLooseRun(element, stats, (chars) => add(element, chars));
    for (let child = element.firstChild; child; child = child.nextSibling) if (isElement(child)) visit(child);
  };
  visit(root);
  return totals;
}

/** How far above the chosen blocks sibling sections are looked for. */
const SECTION_LEVELS = 4;
/**
 * A sibling section joins with this much prose, most of its text, and a share of the chosen blocks' prose: a tenth
 * before them (an intro the scoring weighed less), a quarter after them, where an author's note, readers' reviews or
 * an FAQ that the article does not hold are written the same way.
 */
const SECTION_MIN_PROSE = 200;
const SECTION_PROSE_SHARE = 0.6;
const SECTION_SHARE_BEFORE = 0.1;
const SECTION_SHARE_AFTER = 0.25;
/** Section headings below the title's `<h1>`, outermost first. */
const SECTION_HEADINGS = ['h2', 'h3', 'h4', 'h5', 'h6'];
/** A heading that introduces other pages ("Similar seminars", "Suggested articles", "You may also like"). */
const OTHER_PAGES_HEADING = /^(?:similar|suggested|related|recommended|more|other|latest|popular|recent|you (?:may|might) also)\b/i;
const NEVER_SECTION_TAGS = new Set(['aside', 'nav', 'footer', 'header', 'form', 'pre']);
const SIMILAR_NAMES_SHARE = 0.5;

/** A class name with a digit names one element ("elementor-element-98fbbca"), not a kind of block. */
function kindNames(element: DomElement): Set<string> {
  return new Set((element.getAttribute('class') ?? '').split(/\s+/).filter((name) => name && !/\d/.test(name)));
}

/** Two blocks of one kind: the same tag, and this share of their kind names or more in common (one at least). */
function sameKind(a: DomElement, b: DomElement, namesShare: number): boolean {
  if (a.localName !== b.localName) return false;
  const [namesA, namesB] = [kindNames(a), kindNames(b)];
  let shared = 0;
  for (const name of namesA) if (namesB.has(name)) shared++;
  return shared > 0 && shared >= (namesA.size + namesB.size - shared) * namesShare;
}

function lowestCommonAncestor(blocks: DomElement[]): DomElement {
  let ancestor = blocks[0];
  while (ancestor.parentElement && !blocks.every((block) => contains(ancestor, block))) ancestor = ancestor.parentElement;
  return ancestor;
}

function proseOf(element: DomElement, stats: StatsIndex): number {
  return proseChars(element, stats).get(element) ?? 0;
}

/** The outermost level of section heading in a block (2 for `<h2>`), or none. */
function topHeadingLevel(element: DomElement): number | undefined {
  const level = SECTION_HEADINGS.findIndex((tag) => element.querySelector(tag));
  return level < 0 ? undefined : level + 2;
}

/**
 * A section that opens with a heading of the article's outermost level is one more part of it (Methodology, FAQs),
 * unless the heading introduces other pages.
 */
function continuesHeadings(section: DomElement, articleLevel: number | undefined): boolean {
  const opening = articleLevel === undefined ? undefined : section.querySelector(SECTION_HEADINGS.join(','));
  return !!opening && opening.localName === `h${articleLevel}` && !OTHER_PAGES_HEADING.test(textOf(opening));
}

/**
 * Page builders put an article's parts in sibling sections of one kind (Elementor's intro in one container and the
 * rest in the next, a ranking's entries one list item each): the scoring picks the richest with its siblings by
 * score, and leaves the others out. Climbing a few levels from the chosen blocks, a sibling of the same kind that
 * reads like them (prose, named nothing that says furniture, not the title's block) joins them, in page order; so does
 * a sibling with one class name in common that goes on with their headings, or, before blocks that open with a
 * heading, their intro (prose under no heading).
 */
export function withSiblingSections(blocks: DomElement[], stats: StatsIndex): DomElement[] {
  if (!blocks.length) return blocks;
  let chosenProse = 0;
  for (const block of blocks) chosenProse += proseOf(block, stats);
  const readsLikeArticle = (section: DomElement, anchor: DomElement, isPart: (section: DomElement) => boolean, share: number) => {
    const chars = stats.get(section)?.chars ?? 0;
    if (chars < SECTION_MIN_PROSE || NEVER_SECTION_TAGS.has(section.localName) || classWeight(section) < 0 || isComment(section)) return false;
    // A section that goes on with the article's headings is one of its parts whatever its size and name (a template
    // names each part for what it holds: "wysiwyg", "faq-container", "field--name-field-additional-sections").
    const part = isPart(section);
    const minProse = part ? SECTION_MIN_PROSE : Math.max(SECTION_MIN_PROSE, chosenProse * share);
    if (chars < minProse || !sameKind(section, anchor, part ? 0 : SIMILAR_NAMES_SHARE)) return false;
    const prose = proseOf(section, stats);
    return prose >= minProse && prose >= chars * SECTION_PROSE_SHARE && !section.querySelector('h1');
  };
  let before: DomElement[] = [];
  let after: DomElement[] = [];
  let anchor = lowestCommonAncestor(blocks);
  for (let level = 0; level < SECTION_LEVELS; level++) {
    const parent = anchor.parentElement;
    if (!parent || parent.localName === 'body' || parent.localName === 'html') break;
    const siblings = Array.from(parent.children);
    const at = siblings.indexOf(anchor);
    const articleLevel = topHeadingLevel(anchor);
    const continues = (section: DomElement) => continuesHeadings(section, articleLevel);
    // An article that opens with a section heading lacks its intro: a section of prose before it, under no heading.
    const opening = anchor.querySelector(SECTION_HEADINGS.join(','));
    const opensWithHeading = !!opening && textOf(anchor).startsWith(textOf(opening));
    const leadsIn = (section: DomElement) => continues(section) || (opensWithHeading && !section.querySelector(SECTION_HEADINGS.join(',')));
    before = [...siblings.slice(0, at).filter((section) => readsLikeArticle(section, anchor, leadsIn, SECTION_SHARE_BEFORE)), ...before];
    after = [...after, ...siblings.slice(at + 1).filter((section) => readsLikeArticle(section, anchor, continues, SECTION_SHARE_AFTER))];
    anchor = parent;
  }
  return [...before, ...blocks, ...after];
}

import { DomElement, DomNode, TEXT_NODE, isElement } from '../../dom';
import { removeRepeatedLabels } from './labelled-records';
import { classWeight, isProse } from './main-content';
import { COMMAS } from './text-stats';

/** Containers judged as a whole inside the article: kept when they read like article matter. */
const JUDGED_TAGS = 'div, section, header, ul, ol, table, form, fieldset, p';
const SHORT_POINTER_CHARS = 200;
const POINTERS_DENSITY = 0.6;
const LINK_LIST_DENSITY = 0.7;
/** A box around a form with more text than this is more than a sign-up box (a page's sections each ending in a contact form). */
const SIGNUP_BOX_MAX_CHARS = 600;
const EMBED_TAGS = new Set(['iframe', 'object', 'embed']);
/** A container with this much text outside its lists is prose with lists in it (a ranking's entry, a section and its steps), not a box of list items. */
const PROSE_BESIDE_LISTS_CHARS = 300;

interface Census {
  chars: number;
  linkChars: number;
  commas: number;
  paragraphs: number;
  images: number;
  listItems: number;
  embeds: number;
  listChars: number;
  /** Text inside <p> elements. */
  paragraphChars: number;
}

function census(element: DomElement): Census {
  const count: Census = { chars: 0, linkChars: 0, commas: 0, paragraphs: 0, images: 0, listItems: 0, embeds: 0, listChars: 0, paragraphChars: 0 };
  const visit = (node: DomNode, inLink: boolean, inList: boolean, inParagraph: boolean) => {
    if (node.nodeType === TEXT_NODE) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ');
      count.chars += text.length;
      if (inLink) count.linkChars += text.length;
      if (inList) count.listChars += text.length;
      if (inParagraph) count.paragraphChars += text.length;
      count.commas += text.match(COMMAS)?.length ?? 0;
      return;
    }
    if (!isElement(node)) return;
    const tag = node.localName;
    if (isProse(node) && tag !== 'td') count.paragraphs++;
    else if (tag === 'img') count.images++;
    else if (tag === 'li') count.listItems++;
    else if (EMBED_TAGS.has(tag)) count.embeds++;
    // A list item's text is list text even when a wrapper stands between it and its list (React's `<ul><div><li>`).
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child, inLink || tag === 'a', inList || tag === 'ul' || tag === 'ol' || tag === 'li', inParagraph || tag === 'p');
  };
  visit(element, false, false, false);
  return count;
}

/**
 * A short box around a form is a sign-up box (mashable's "Be the first to know!" between the paragraphs),
 * though its consent text reads as prose: the article's core must not spare it.
 */
export function isSignupBox(chars: number, holdsForm: boolean): boolean {
  return chars < SIGNUP_BOX_MAX_CHARS && holdsForm;
}

/** List items this long on average (a short sentence), with few links, are prose (a review's findings), not a box's entries (a card's pros and cons, a menu). */
const PROSE_ITEM_CHARS = 60;
const PROSE_ITEM_LINK_DENSITY = 0.2;

function itemsAreProse(count: Census): boolean {
  return count.listChars >= count.listItems * PROSE_ITEM_CHARS && count.linkChars < count.chars * PROSE_ITEM_LINK_DENSITY;
}

/** Prose an entry of a list holds besides its pointer, for the pointer to be the entry's own. */
const ITEM_PROSE_CHARS = 100;

/**
 * A pointer that closes an entry of a list written in prose ("See: “What is RAG?”" under a newsletter's description
 * in a ranking of ten) is the entry's own reference, which the article keeps; a list whose items are nothing but
 * pointers is still a link list.
 */
function pointsFromItsItem(paragraph: DomElement, own: Census): boolean {
  const item = paragraph.parentElement;
  if (item?.localName !== 'li') return false;
  const whole = census(item);
  const chars = whole.chars - own.chars;
  return chars >= ITEM_PROSE_CHARS && whole.linkChars - own.linkChars < chars * 0.5;
}

/**
 * A paragraph with this much text besides its links is a sentence that links ("Learn more in Strategies and Tools
 * for …", "Companies using Amazon Lex are Nokia, Vonage, …"), which the article keeps; with this much and a closing
 * stop, a short one ("We also wrote a guide here with tips …."). Pointers ("Read more: …", "→ Related: …") and lists of
 * links have less.
 */
const SENTENCE_OWN_CHARS = 50;
const SHORT_SENTENCE_OWN_CHARS = 20;
const SENTENCE_END = /[.!?]["”’)]?$/;

function isLinkedSentence(paragraph: DomElement, own: Census): boolean {
  const unlinked = own.chars - own.linkChars;
  return unlinked >= SENTENCE_OWN_CHARS || (unlinked >= SHORT_SENTENCE_OWN_CHARS && SENTENCE_END.test((paragraph.textContent ?? '').trim()));
}

/**
 * A container of paragraphs up to half links, with this much text besides them, is prose that cites (an FAQ's answer
 * linking its sources, a listicle's entry linking the product): the truth keeps seven in ten of those Readability's
 * "more than a fifth links" dropped. Without paragraphs holding most of its text (a job board's cards: a sentence
 * above a hundred tags), or with more links, it is a box of pointers.
 */
const LINKED_PROSE_OWN_CHARS = 150;
const LINKED_PROSE_MAX_DENSITY = 0.5;
const LINKED_PROSE_PARAGRAPH_SHARE = 0.5;

function isLinkedProse(count: Census, linkDensity: number): boolean {
  return (
    count.paragraphChars >= count.chars * LINKED_PROSE_PARAGRAPH_SHARE &&
    linkDensity <= LINKED_PROSE_MAX_DENSITY &&
    count.chars - count.linkChars >= LINKED_PROSE_OWN_CHARS
  );
}

/**
 * Readability's conditional cleaning: a container inside the article goes when it reads like
 * furniture — a class that says so, more links than prose, more images or list items than
 * paragraphs (and little text besides the lists), a form, a lone embed. Containers with many commas are prose and stay, and so does
 * the article's core (its prose blocks, measured before pruning: a section citing many sources
 * has a fifth of its text in links, a listicle's section more list items than paragraphs).
 */
function isFurniture(element: DomElement, core: ReadonlySet<DomElement>, formsHeld: ReadonlyMap<DomElement, number>): boolean {
  if (core.has(element)) return false;
  const weight = classWeight(element);
  if (weight < 0) return true;
  const count = census(element);
  // A paragraph that is mostly links is a "Read more: …" pointer or a list of them, not prose.
  if (element.localName === 'p') {
    const density = count.linkChars / (count.chars || 1);
    return (density > POINTERS_DENSITY || (count.chars < SHORT_POINTER_CHARS && density > 0.5)) && !pointsFromItsItem(element, count) && !isLinkedSentence(element, count);
  }
  if (count.commas >= 10) return false;
  const tag = element.localName;
  const isList = tag === 'ul' || tag === 'ol' || (count.chars > 0 && count.listChars / count.chars > 0.9);
  const inFigure = element.closest('figure') !== null;
  const linkDensity = count.chars ? count.linkChars / count.chars : 0;
  return (
    (!inFigure && count.images > 1 && count.paragraphs / count.images < 0.5) ||
    (!isList && count.listItems > count.paragraphs && count.chars - count.listChars < PROSE_BESIDE_LISTS_CHARS && !itemsAreProse(count)) ||
    isSignupBox(count.chars, formsHeld.has(element)) ||
    (!isList && !inFigure && count.chars < 25 && (count.images === 0 || count.images > 2) && linkDensity > 0) ||
    (!isList && weight < 25 && linkDensity > 0.2 && !isLinkedProse(count, linkDensity)) ||
    // a list of nothing but links inside an article points elsewhere ("Related", "More on this")
    (isList && linkDensity > LINK_LIST_DENSITY) ||
    (weight >= 25 && linkDensity > 0.5) ||
    (count.embeds === 1 && count.chars < 75) ||
    count.embeds > 1
  );
}

/**
 * The forms inside each container of `block`, counted before cleaning: the sign-up form goes
 * first (innermost first), and the box around it ("Be the first to know! … By signing up, you
 * agree …") must still count as holding one. Its inputs are gone already (boilerplate.ts).
 */
function countFormsHeld(block: DomElement): Map<DomElement, number> {
  const held = new Map<DomElement, number>();
  for (const form of block.querySelectorAll('form')) {
    for (let node: DomElement | null = form; node && node !== block.parentElement; node = node.parentElement) held.set(node, (held.get(node) ?? 0) + 1);
  }
  return held;
}

/** Removes furniture inside the article's blocks, innermost first; the article's `core` (extract-body.ts) is not judged by its class. */
export function cleanContent(blocks: DomElement[], core: ReadonlySet<DomElement>): void {
  for (const block of blocks) {
    const judged = Array.from(block.querySelectorAll(JUDGED_TAGS));
    const formsHeld = countFormsHeld(block);
    for (let i = judged.length - 1; i >= 0; i--) if (isFurniture(judged[i], core, formsHeld)) judged[i].remove();
    // after the containers are judged: a card that holds them goes whole where it reads like furniture
    removeRepeatedLabels(block, core);
  }
}

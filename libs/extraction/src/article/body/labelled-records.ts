import { DomElement, textOf } from '../../dom';

/**
 * A forum post's author card lists the same labelled facts under every post ("Joined", "Messages",
 * "Reaction score", "Location" in XenForo's `dl.pairs`; "Posts: 9179" in phpBB's profile column): a
 * template's labels, whose values are a count, a date or a place. The annotation leaves them out; the
 * post stays, and so does the card's name (the post's author), which no label heads. Only description
 * lists are read: the same "Label: value" lines in list items are a review's own facts per product,
 * which the annotation keeps (counting them moved 36 pages down and 16 up: docs/extraction.md).
 */
const LABEL_MAX_CHARS = 30;
const VALUE_MAX_CHARS = 60;
/** One label under this many items of one body is a template's: an article's own facts ("Born: 1950") stand once. */
const TEMPLATE_REPEATS = 3;
/** "Posts: 9179": a short label, its colon, a short value. */
const LABELLED_LINE = new RegExp(`^([^:]{1,${LABEL_MAX_CHARS}}):\\s*(.{1,${VALUE_MAX_CHARS}})$`, 'u');

interface LabelledValue {
  label: string;
  /** What goes with it: a `<dt>` and its `<dd>`s, or a line that names its label itself. */
  elements: DomElement[];
}

/** Labels compared as words: "Posts:" and "posts" are one, a digit is any digit. */
function labelKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '0').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function labelledValues(block: DomElement): LabelledValue[] {
  const found: LabelledValue[] = [];
  for (const term of block.querySelectorAll('dt')) {
    const label = textOf(term);
    const values: DomElement[] = [];
    for (let next = term.nextElementSibling; next?.localName === 'dd'; next = next.nextElementSibling) values.push(next);
    if (label.length > LABEL_MAX_CHARS || values.length === 0 || values.some((value) => textOf(value).length > VALUE_MAX_CHARS)) continue;
    found.push({ label: labelKey(label), elements: [term, ...values] });
  }
  for (const line of block.querySelectorAll('dd')) {
    const match = LABELLED_LINE.exec(textOf(line));
    if (match && !line.querySelector('dd')) found.push({ label: labelKey(match[1]), elements: [line] });
  }
  return found.filter((value) => value.label !== '');
}

/** Removes the labelled values that repeat a template's label (`core`: the article's prose blocks, never removed). */
export function removeRepeatedLabels(block: DomElement, core: ReadonlySet<DomElement>): void {
  const values = labelledValues(block);
  const repeats = new Map<string, number>();
  for (const value of values) repeats.set(value.label, (repeats.get(value.label) ?? 0) + 1);
  for (const value of values) {
    if ((repeats.get(value.label) ?? 0) < TEMPLATE_REPEATS) continue;
    for (const element of value.elements) if (!core.has(element)) element.remove();
  }
}

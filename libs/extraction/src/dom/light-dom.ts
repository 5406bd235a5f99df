import { Parser } from 'htmlparser2';
import { DomDocument, DomElement, DomNode, ELEMENT_NODE, TEXT_NODE } from './dom.types';
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { withDoubleEncodingUndone } from './double-encoding';
import { withHeadingsClosed, withoutNonContent } from './pre-parse';
import { compileSelector } from './selector';

/**
 * A light DOM straight from htmlparser2's events — the tokenizer linkedom itself runs, so
 * the tree has the same shape — without linkedom's node machinery: on 700 KB shop pages it
 * builds in a fifth of linkedom's time. It implements the engine's DOM interface
 * (dom.types.ts) with the selectors of selector.ts, plus the few mutations cleaning needs.
 */
export function parseLightPage(html: string): DomDocument {
  const root = new LightElement('#document', Object.create(null));
  buildInto(root, withHeadingsClosed(withDoubleEncodingUndone(withoutNonContent(html))));
  return new LightDocument(root);
}

abstract class LightNode implements DomNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  abstract readonly textContent: string;
  parentElement: LightElement | null = null;
  nextSibling: LightNode | null = null;
  get firstChild(): LightNode | null {
    return null;
  }
  get childNodes(): readonly LightNode[] {
    return [];
  }
}

// Constant properties are getters on the prototype, not fields: each page makes thousands of
// nodes, and smaller nodes are cheaper to allocate and for the garbage collector to move.
class LightText extends LightNode {
  get nodeType(): number {
    return TEXT_NODE;
  }
  get nodeName(): string {
    return '#text';
  }
  constructor(public data: string) {
    super();
  }
  get textContent(): string {
    return this.data;
  }
}

class LightElement extends LightNode implements DomElement {
  get nodeType(): number {
    return ELEMENT_NODE;
  }
  readonly nodes: LightNode[] = [];
  constructor(
    readonly localName: string,
    private readonly attributes: Record<string, string>,
  ) {
    super();
  }
  get nodeName(): string {
    return this.localName.toUpperCase();
  }
  get tagName(): string {
    return this.nodeName;
  }
  get id(): string {
    return this.attributes.id ?? '';
  }
  get className(): string {
    return this.attributes.class ?? '';
  }
  override get childNodes(): readonly LightNode[] {
    return this.nodes;
  }
  override get firstChild(): LightNode | null {
    return this.nodes[0] ?? null;
  }
  get children(): LightElement[] {
    return this.nodes.filter((node): node is LightElement => node instanceof LightElement);
  }
  get nextElementSibling(): LightElement | null {
    for (let node = this.nextSibling; node; node = node.nextSibling) if (node instanceof LightElement) return node;
    return null;
  }
  get previousElementSibling(): LightElement | null {
    const siblings = this.parentElement?.nodes ?? [];
    for (let i = siblings.indexOf(this) - 1; i >= 0; i--) {
      const sibling = siblings[i];
      if (sibling instanceof LightElement) return sibling;
    }
    return null;
  }
  get textContent(): string {
    const parts: string[] = [];
    collectText(this, parts);
    return parts.join('');
  }
  get innerHTML(): string {
    return this.nodes.map(serialize).join('');
  }
  set innerHTML(html: string) {
    for (const node of this.nodes) node.parentElement = null;
    this.nodes.length = 0;
    buildInto(this, html);
  }
  get outerHTML(): string {
    return serialize(this);
  }
  /**
   * Names as the parser stores them: lower case (callers pass them so; no case folding per
   * call). The attributes are htmlparser2's plain object: only strings count, so
   * "constructor" and the like are never attributes. Values are stored as written and
   * decoded when read.
   */
  getAttribute(name: string): string | null {
    const value = this.attributes[name];
    return typeof value === 'string' ? decodeHTMLAttribute(value) : null;
  }
  hasAttribute(name: string): boolean {
    return typeof this.attributes[name] === 'string';
  }
  setAttribute(name: string, value: string): void {
    this.attributes[name.toLowerCase()] = value.replace(/&/g, '&amp;');
  }
  removeAttribute(name: string): void {
    delete this.attributes[name.toLowerCase()];
  }
  attributeEntries(): [string, string][] {
    return Object.entries(this.attributes)
      .filter(([, value]) => typeof value === 'string')
      .map(([name, value]) => [name, decodeHTMLAttribute(value)]);
  }
  querySelectorAll(selectors: string): LightElement[] {
    const matches = compileSelector(selectors);
    const found: LightElement[] = [];
    forEachDescendant(this, (element) => {
      if (matches(element)) found.push(element);
      return true;
    });
    return found;
  }
  querySelector(selectors: string): LightElement | null {
    const matches = compileSelector(selectors);
    let first: LightElement | null = null;
    forEachDescendant(this, (element) => {
      if (matches(element)) first = element;
      return first === null;
    });
    return first;
  }
  closest(selectors: string): LightElement | null {
    const matches = compileSelector(selectors);
    for (let node: LightElement | null = this; node && node.localName !== '#document'; node = node.parentElement) if (matches(node)) return node;
    return null;
  }
  remove(): void {
    const parent = this.parentElement;
    if (!parent) return;
    const index = parent.nodes.indexOf(this);
    parent.nodes.splice(index, 1);
    if (index > 0) parent.nodes[index - 1].nextSibling = parent.nodes[index] ?? null;
    this.parentElement = null;
    this.nextSibling = null;
  }
  append(node: LightNode): void {
    const last = this.nodes[this.nodes.length - 1];
    if (last) last.nextSibling = node;
    node.parentElement = this;
    this.nodes.push(node);
  }
}

class LightDocument implements DomDocument {
  readonly documentElement: LightElement;
  constructor(private readonly root: LightElement) {
    this.documentElement = root.children.find((e) => e.localName === 'html') ?? root;
  }
  get head(): LightElement | null {
    return this.documentElement.children.find((e) => e.localName === 'head') ?? null;
  }
  get body(): LightElement | null {
    return this.documentElement.children.find((e) => e.localName === 'body') ?? null;
  }
  get title(): string {
    return this.root.querySelector('title')?.textContent.trim() ?? '';
  }
  querySelector(selectors: string): LightElement | null {
    return this.root.querySelector(selectors);
  }
  querySelectorAll(selectors: string): LightElement[] {
    return this.root.querySelectorAll(selectors);
  }
}

/** Depth-first, document order; the visitor returns false to stop. */
function forEachDescendant(root: LightElement, visit: (element: LightElement) => boolean): void {
  const stack: LightNode[] = [...root.nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!(node instanceof LightElement)) continue;
    if (!visit(node)) return;
    for (let i = node.nodes.length - 1; i >= 0; i--) stack.push(node.nodes[i]);
  }
}

function collectText(element: LightElement, parts: string[]): void {
  for (const node of element.nodes) {
    if (node instanceof LightText) parts.push(node.data);
    else if (node instanceof LightElement) collectText(node, parts);
  }
}

/**
 * Past this depth a new element is attached beside the deepest allowed one instead of
 * nesting further (its text and children still go to it), as in Blink's parser
 * (kMaximumHTMLParserDOMTreeDepth, 512): pages with thousands of unclosed tags exist, and
 * the extractors' walks recurse.
 */
const MAX_TREE_DEPTH = 512;

function buildInto(parent: LightElement, html: string): void {
  // The open elements as the tokenizer sees them; open[0] is `parent`.
  const open: LightElement[] = [parent];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = new LightElement(name, attributes);
        open[Math.min(open.length, MAX_TREE_DEPTH) - 1].append(element);
        open.push(element);
      },
      onclosetag() {
        if (open.length > 1) open.pop();
      },
      ontext(raw) {
        const current = open[open.length - 1];
        const text = UNDECODED_TEXT_ELEMENTS.has(current.localName) ? raw : decodeHTML(raw);
        const last = current.nodes[current.nodes.length - 1];
        if (last instanceof LightText) last.data += text;
        else current.append(new LightText(text));
      },
    },
    // The tokenizer does not decode (it then skips ahead to the next '<' or quote instead of
    // inspecting every character): text is decoded as the tree is built and attribute values
    // when read, by the `entities` decoder htmlparser2 itself uses (same tables and rules).
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
}

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT_ELEMENTS = new Set(['script', 'style']);
// Where htmlparser2's decoding parse leaves entities as written (kept so: same text as before).
const UNDECODED_TEXT_ELEMENTS = new Set([...RAW_TEXT_ELEMENTS, 'textarea']);

function serialize(node: LightNode): string {
  if (node instanceof LightText) return RAW_TEXT_ELEMENTS.has(node.parentElement?.localName ?? '') ? node.data : escapeText(node.data);
  if (!(node instanceof LightElement)) return '';
  const attributes = node.attributeEntries().map(([name, value]) => ` ${name}="${escapeAttributeValue(value)}"`).join('');
  if (VOID_ELEMENTS.has(node.localName)) return `<${node.localName}${attributes}>`;
  return `<${node.localName}${attributes}>${node.innerHTML}</${node.localName}>`;
}

/** A value as written between double quotes in html. */
export function escapeAttributeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The part of the DOM the engine uses (the light DOM implements it). The project compiles
 * without the "dom" lib (it is a Node code base), so the engine names what it needs here.
 * Node lists are arrays, hence the array types.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentElement: DomElement | null;
  readonly childNodes: readonly DomNode[];
  /** Sibling links: walking them allocates nothing (childNodes builds an array per call). */
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly textContent: string | null;
}

export interface DomElement extends DomNode {
  /** Lower case, e.g. "div". */
  readonly localName: string;
  readonly tagName: string;
  readonly id: string;
  readonly className: string;
  readonly children: readonly DomElement[];
  readonly nextElementSibling: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): readonly DomElement[];
  closest(selectors: string): DomElement | null;
  remove(): void;
}

export interface DomDocument {
  readonly documentElement: DomElement;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  readonly title: string;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): readonly DomElement[];
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE;
}

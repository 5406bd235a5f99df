/**
 * The part of linkedom's DOM the engine uses. linkedom's own typings resolve to `any` without
 * the DOM lib (which the monorepo cannot enable: it clashes with Node's fetch types).
 */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly parentElement: DomElement | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  textContent: string | null;
  remove(): void;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  readonly attributes: ArrayLike<{ name: string; value: string }>;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
}

export interface DomDocument {
  readonly documentElement: DomElement;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  readonly title: string;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE;
}

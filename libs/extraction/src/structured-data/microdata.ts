import { DomElement } from '../dom';
import { elementValue } from './element-value';
import { StructuredRecord } from './structured-data.types';
import { localNames, typeNames } from './vocabulary';

/** Microdata items (itemscope/itemtype/itemprop), nested items as record values. */
export function readMicrodata(elements: readonly DomElement[], baseUrl: string): StructuredRecord[] {
  return readItems(elements, baseUrl, {
    isProperty: (element) => element.hasAttribute('itemprop'),
    typesOf: (element) => typeNames(element.getAttribute('itemtype')),
    propertyNamesOf: (element) => localNames(element.getAttribute('itemprop')),
    isScope: (element) => element.hasAttribute('itemscope'),
    source: 'microdata',
  });
}

export interface ItemSyntax {
  isProperty(element: DomElement): boolean;
  typesOf(element: DomElement): string[];
  propertyNamesOf(element: DomElement): string[];
  isScope(element: DomElement): boolean;
  source: StructuredRecord['source'];
}

/**
 * Builds records from an item syntax where an element opens an item and descendant
 * elements name its properties (microdata; RDFa lite has the same shape). A property
 * belongs to the nearest enclosing item; an item that is itself a property becomes a
 * nested record, the others are top-level.
 */
export function readItems(elements: readonly DomElement[], baseUrl: string, syntax: ItemSyntax): StructuredRecord[] {
  const scopes = elements.filter(syntax.isScope);
  if (!scopes.length) return [];
  const recordOf = new Map<DomElement, StructuredRecord>();
  for (const scope of scopes) recordOf.set(scope, { types: syntax.typesOf(scope), properties: {}, source: syntax.source });

  const topLevel: StructuredRecord[] = [];
  for (const scope of scopes) {
    const owner = enclosingScope(scope, syntax);
    const names = syntax.propertyNamesOf(scope);
    const record = recordOf.get(scope)!;
    if (owner && names.length) names.forEach((name) => addValue(recordOf.get(owner)!, name, record));
    else topLevel.push(record);
  }
  for (const element of elements) {
    if (!syntax.isProperty(element) || syntax.isScope(element)) continue;
    const owner = enclosingScope(element, syntax);
    if (!owner) continue;
    const value = elementValue(element, baseUrl);
    if (value) syntax.propertyNamesOf(element).forEach((name) => addValue(recordOf.get(owner)!, name, value));
  }
  return topLevel;
}

function enclosingScope(element: DomElement, syntax: ItemSyntax): DomElement | undefined {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (syntax.isScope(parent)) return parent;
  }
  return undefined;
}

function addValue(record: StructuredRecord, name: string, value: StructuredRecord['properties'][string][number]): void {
  (record.properties[name] ??= []).push(value);
}

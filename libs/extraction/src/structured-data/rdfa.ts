import { DomElement } from '../dom';
import { readItems } from './microdata';
import { StructuredRecord } from './structured-data.types';
import { localNames, typeNames } from './vocabulary';

/** RDFa lite items (typeof/property, vocab or prefixed terms), read like microdata. */
export function readRdfa(elements: readonly DomElement[], baseUrl: string): StructuredRecord[] {
  return readItems(elements, baseUrl, {
    isProperty: (element) => element.hasAttribute('property'),
    typesOf: (element) => typeNames(element.getAttribute('typeof')),
    propertyNamesOf: (element) => localNames(element.getAttribute('property')),
    isScope: (element) => element.hasAttribute('typeof'),
    source: 'rdfa',
  });
}

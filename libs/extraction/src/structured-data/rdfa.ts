import { DomDocument } from '../dom';
import { readItems } from './microdata';
import { StructuredRecord } from './structured-data.types';
import { localNames, typeNames } from './vocabulary';

/** RDFa lite items (typeof/property, vocab or prefixed terms), read like microdata. */
export function readRdfa(document: DomDocument, baseUrl: string): StructuredRecord[] {
  return readItems(document, baseUrl, {
    scopeSelector: '[typeof]',
    propertySelector: '[property]',
    typesOf: (element) => typeNames(element.getAttribute('typeof')),
    propertyNamesOf: (element) => localNames(element.getAttribute('property')),
    isScope: (element) => element.hasAttribute('typeof'),
    source: 'rdfa',
  });
}

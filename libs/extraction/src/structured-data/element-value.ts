import { DomElement, normalizeSpace, resolveUrl } from '../dom';

const URL_ATTRIBUTE_BY_TAG: Record<string, string> = {
  a: 'href', area: 'href', link: 'href',
  img: 'src', audio: 'src', video: 'src', source: 'src', iframe: 'src', embed: 'src', track: 'src',
  object: 'data',
};

/**
 * The value an itemprop/property element carries (HTML microdata rules, shared by RDFa):
 * content attribute, link targets resolved to absolute urls, datetime/value, else its text.
 */
export function elementValue(element: DomElement, baseUrl: string): string {
  const content = element.getAttribute('content');
  if (content !== null) return normalizeSpace(content);
  const urlAttribute = URL_ATTRIBUTE_BY_TAG[element.localName];
  if (urlAttribute) {
    const raw = element.getAttribute(urlAttribute) ?? element.getAttribute('resource');
    return resolveUrl(raw, baseUrl) ?? normalizeSpace(raw);
  }
  const machineValue = element.getAttribute('datetime') ?? (element.localName === 'data' || element.localName === 'meter' ? element.getAttribute('value') : null);
  if (machineValue !== null) return normalizeSpace(machineValue);
  return normalizeSpace(element.textContent);
}

import { DomDocument } from '../../dom';
import { StructuredData, StructuredRecord, metaValue, propertyText } from '../../structured-data';

/** ISO 639-1 code from structured data, <html lang>, content-language or og:locale ("pt-BR", "en_US" → "pt", "en"). */
export function articleLanguage(article: StructuredRecord | undefined, data: StructuredData, document: DomDocument): string | undefined {
  const candidates = [
    propertyText(article, 'inLanguage'),
    document.documentElement.getAttribute('lang'),
    document.documentElement.getAttribute('xml:lang'),
    metaValue(data, 'content-language', 'og:locale', 'language', 'dc.language'),
  ];
  for (const candidate of candidates) {
    const code = /^\s*([a-z]{2})(?:[-_][a-z0-9]+)*\s*$/i.exec(candidate ?? '')?.[1];
    if (code) return code.toLowerCase();
  }
  return undefined;
}

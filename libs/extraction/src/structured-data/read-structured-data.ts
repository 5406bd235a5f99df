import { DomDocument, documentBaseUrl } from '../dom';
import { readJsonLd } from './json-ld';
import { readMetaTags } from './meta-tags';
import { readMicrodata } from './microdata';
import { readRdfa } from './rdfa';
import { StructuredData } from './structured-data.types';

/** All structured data of a parsed page; relative urls resolve against the page (or its <base>). */
export function readStructuredData(document: DomDocument, pageUrl: string): StructuredData {
  const baseUrl = documentBaseUrl(document, pageUrl);
  return {
    records: [...readJsonLd(document), ...readMicrodata(document, baseUrl), ...readRdfa(document, baseUrl)],
    meta: readMetaTags(document),
  };
}

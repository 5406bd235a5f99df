import { DomDocument, documentBaseUrl } from '../dom';
import { readJsonLd } from './json-ld';
import { readMetaTags } from './meta-tags';
import { readMicrodata } from './microdata';
import { readRdfa } from './rdfa';
import { StructuredData } from './structured-data.types';

/** All structured data of a parsed page; relative urls resolve against the page (or its <base>). */
export function readStructuredData(document: DomDocument, pageUrl: string): StructuredData {
  const baseUrl = documentBaseUrl(document, pageUrl);
  // One walk finds every element any syntax reads; each reader picks its own.
  const marked = document.querySelectorAll('script[type],meta[content],[itemscope],[itemprop],[typeof],[property]');
  return {
    records: [...readJsonLd(marked), ...readMicrodata(marked, baseUrl), ...readRdfa(marked, baseUrl)],
    meta: readMetaTags(marked),
  };
}

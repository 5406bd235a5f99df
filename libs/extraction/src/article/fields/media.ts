import { DomDocument, DomElement, resolveUrl } from '../../dom';
import { StructuredData, StructuredRecord, findRecords, metaValue, propertyText, propertyValues } from '../../structured-data';

const IMAGE_SOURCE_ATTRIBUTES = ['src', 'data-src', 'data-lazy-src', 'data-original'];

function unique(urls: (string | undefined)[]): string[] {
  return [...new Set(urls.filter((url): url is string => url !== undefined))];
}

function imageUrl(value: StructuredRecord['properties'][string][number], baseUrl: string): string | undefined {
  return typeof value === 'string' ? resolveUrl(value, baseUrl) : resolveUrl(propertyText(value, 'url') ?? propertyText(value, 'contentUrl'), baseUrl);
}

/** The lead image: structured data, og:image / twitter:image, else the article's lead figure, else the body's first image. */
export function mainImage(article: StructuredRecord | undefined, data: StructuredData, leadFigure: string | undefined, bodyImages: string[], baseUrl: string): string | undefined {
  const structured = propertyValues(article, 'image').map((value) => imageUrl(value, baseUrl)).find(Boolean);
  return structured ?? resolveUrl(metaValue(data, 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'), baseUrl) ?? leadFigure ?? bodyImages[0];
}

/** The image of the first figure inside the page's first <article> (a lead photo often sits above the body). Read before the body is found: that prunes the page. */
export function leadFigureImage(document: DomDocument, baseUrl: string): string | undefined {
  const img = document.querySelector('article figure img');
  return img ? imageSource(img, baseUrl) : undefined;
}

function imageSource(img: DomElement, baseUrl: string): string | undefined {
  const source = IMAGE_SOURCE_ATTRIBUTES.map((name) => img.getAttribute(name)).find((value) => value && !value.startsWith('data:image/gif'));
  return source?.startsWith('data:') ? source : resolveUrl(source, baseUrl);
}

/** Images inside the body (lazy-loading attributes included), in page order, data URLs kept. */
export function bodyImages(blocks: DomElement[], baseUrl: string): string[] {
  return unique(
    blocks.flatMap((block) =>
      Array.from(block.querySelectorAll('img')).map((img) => imageSource(img, baseUrl)),
    ),
  );
}

/** Video or audio addresses: <video>/<audio> (and their <source>) in the body, og:video / og:audio, VideoObject / AudioObject. */
export function mediaUrls(kind: 'video' | 'audio', blocks: DomElement[], data: StructuredData, baseUrl: string): string[] {
  const elements = blocks.flatMap((block) => Array.from(block.querySelectorAll(`${kind}[src], ${kind} source[src]`)));
  const objects = findRecords(data, [kind === 'video' ? 'VideoObject' : 'AudioObject']);
  return unique([
    ...elements.map((element) => resolveUrl(element.getAttribute('src'), baseUrl)),
    ...objects.map((object) => resolveUrl(propertyText(object, 'contentUrl') ?? propertyText(object, 'embedUrl'), baseUrl)),
    resolveUrl(metaValue(data, `og:${kind}:secure_url`, `og:${kind}:url`, `og:${kind}`), baseUrl),
  ]);
}

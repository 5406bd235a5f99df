import { parseDocument } from '../dom/parse-html';
import { Article, ExtractOptions } from '../extraction.types';
import { findArticleBody } from './body/extract-body';
import { renderHtml, renderText } from './body/render-body';

export function extractArticle(html: string, url: string, options: ExtractOptions = {}): Article {
  const document = parseDocument(html);
  const article: Article = { url, probability: 0 };
  const body = findArticleBody(document);
  if (body) {
    const text = renderText(body.blocks);
    if (text) article.articleBody = text;
    if (text && options.articleBodyRaw !== false) article.articleBodyRaw = renderHtml(body.blocks, (link) => resolveUrl(link, url));
  }
  return article;
}

function resolveUrl(link: string, base: string): string | undefined {
  try {
    return new URL(link, base).href;
  } catch {
    return undefined;
  }
}

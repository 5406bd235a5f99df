import { documentBaseUrl, parsePage, resolveUrl } from '../dom';
import { Article, ExtractOptions } from '../extraction.types';
import { findArticleBody } from './body/extract-body';
import { renderHtml, renderText } from './body/render-body';

export function extractArticle(html: string, url: string, options: ExtractOptions = {}): Article {
  const document = parsePage(html);
  const baseUrl = documentBaseUrl(document, url);
  const article: Article = { url, probability: 0 };
  const body = findArticleBody(document);
  if (body) {
    const text = renderText(body.blocks);
    if (text) article.articleBody = text;
    if (text && options.articleBodyRaw !== false) article.articleBodyRaw = renderHtml(body.blocks, (link) => resolveUrl(link, baseUrl));
  }
  return article;
}

import { documentBaseUrl, domBreadcrumbs, normalizeSpace, parseLightPage, resolveUrl } from '../dom';
import { Article, ExtractOptions } from '../extraction.types';
import { StructuredData, StructuredRecord, findRecords, firstRecord, metaValue, propertyText, readStructuredData, structuredBreadcrumbs } from '../structured-data';
import { cleanContent } from './body/clean-content';
import { findArticleBody } from './body/extract-body';
import { headingKey, linesHtml, renderHtml, renderText } from './body/render-body';
import { AuthorCandidate, articleAuthors, authorCandidates } from './fields/authors';
import { leanHtml } from './lean-html';
import { HeadlineCandidate, articleHeadline, headlineCandidates } from './fields/headline';
import { articleLanguage } from './fields/language';
import { bodyImages, leadFigureImage, mainImage, mediaUrls } from './fields/media';
import { articlePageFeatures, articleProbability, linkedHeadlines } from './fields/probability';
import { FeatureValues } from '../model/logistic';
import { ExtractionModels, SHIPPED_MODELS } from '../model/models';
import { DateCandidate, articleDate, dateCandidates } from './fields/published-date';

/** schema.org types of one article, most specific first. */
const ARTICLE_TYPES = ['NewsArticle', 'ReportageNewsArticle', 'AnalysisNewsArticle', 'OpinionNewsArticle', 'BlogPosting', 'TechArticle', 'ScholarlyArticle', 'Report', 'Article'];
const GENERATED_DESCRIPTION_CHARS = 300;

/** An article's fields from its page; fields without a valid value are left out. */
export function extractArticle(html: string, url: string, options: ExtractOptions = {}, models: ExtractionModels = SHIPPED_MODELS): Article {
  return extractArticleWithEvidence(html, url, options, models).article;
}

/** What the fitted models weighed on one page (what bench/extraction/train-models.ts fits on). */
export interface ArticleModelEvidence {
  pageFeatures: FeatureValues;
  headlineCandidates: HeadlineCandidate[];
  authorCandidates: AuthorCandidate[];
  dateCandidates: DateCandidate[];
  /** The body candidates the body model weighs, the rules' choice first, each with the body text it gives (only when asked for: training). */
  bodyCandidates?: { features: FeatureValues; text: string }[];
}

/**
 * The fields the fitted models decide, from the evidence alone: the rest of the extraction
 * does not depend on the models, so the bench cross-validates by re-applying models to
 * evidence gathered once (this is what extractArticle itself computes for them).
 */
export function modelledArticleFields(evidence: ArticleModelEvidence, models: ExtractionModels): Pick<Article, 'headline' | 'probability' | 'author' | 'authorsList' | 'datePublished' | 'datePublishedRaw'> {
  const authors = articleAuthors(evidence.authorCandidates, models.author);
  const date = articleDate(evidence.dateCandidates, models.date);
  return {
    datePublished: date?.iso,
    datePublishedRaw: date?.raw,
    headline: articleHeadline(evidence.headlineCandidates, models.headline),
    author: authors?.text,
    authorsList: authors?.names ?? [],
    probability: articleProbability(evidence.pageFeatures, models.articlePage),
  };
}

/**
 * extractArticle, with the evidence its models weighed; `withBodyCandidates` also renders the
 * text of every body candidate (the body model's training rows: slower, the bench only).
 */
export function extractArticleWithEvidence(
  html: string,
  url: string,
  options: ExtractOptions = {},
  models: ExtractionModels = SHIPPED_MODELS,
  withBodyCandidates = false,
): { article: Article; evidence: ArticleModelEvidence } {
  const document = parseLightPage(leanHtml(html));
  const baseUrl = documentBaseUrl(document, url);
  // Everything read from the page as a whole comes first: finding the body prunes the document.
  const data = readStructuredData(document, baseUrl);
  const record = firstRecord(data, ARTICLE_TYPES);
  const candidates = headlineCandidates(record, data, document, baseUrl);
  // The title repeated at the top of the body is not body text: any place the page states it (not only the chosen one, so the body does not hang on the headline model).
  // A later <h1> that no other place states is a sub-heading of the body, not its title.
  const titles = new Set(candidates.filter((c) => !(c.features.from_laterH1 && c.features.agreement === 1)).map((c) => headingKey(c.text)).filter(Boolean));
  const dates = dateCandidates(record, data, document, url, new Set(candidates.map((c) => headingKey(c.text)).filter(Boolean)));
  const date = articleDate(dates, models.date);
  // The chosen record may name nobody where another article record of the page does (a theme's BlogPosting beside the shop's Article that names the author).
  const authored = record?.properties.author ? record : (findRecords(data, ARTICLE_TYPES).find((r) => r.properties.author) ?? record);
  const bylines = authorCandidates(authored, data, document, url);
  const authors = articleAuthors(bylines, models.author);
  const inLanguage = articleLanguage(record, data, document);
  const breadcrumbs = structuredBreadcrumbs(data, baseUrl) ?? domBreadcrumbs(document, baseUrl);
  const teasers = linkedHeadlines(document);
  const leadFigure = leadFigureImage(document, baseUrl);

  const body = findArticleBody(document, models.body, withBodyCandidates);
  const blocks = body?.blocks ?? [];
  const domText = renderText(blocks, titles);
  const structuredText = structuredBodyText(record, domText);
  const articleBody = structuredText ?? domText;
  const wantsRaw = articleBody !== '' && options.articleBodyRaw !== false;
  const articleBodyRaw = !wantsRaw ? undefined : structuredText ? linesHtml(structuredText) : renderHtml(blocks, (link) => resolveUrl(link, baseUrl));
  const images = bodyImages(blocks, baseUrl);
  const lead = mainImage(record, data, leadFigure, images, baseUrl);
  const article: Article = {
    headline: articleHeadline(candidates, models.headline),
    datePublished: date?.iso,
    datePublishedRaw: date?.raw,
    author: authors?.text,
    authorsList: authors?.names ?? [],
    inLanguage,
    breadcrumbs,
    mainImage: lead,
    images: lead && !images.includes(lead) ? [lead, ...images] : images,
    description: articleDescription(record, data, articleBody),
    articleBody,
    articleBodyRaw,
    videoUrls: mediaUrls('video', blocks, data, baseUrl),
    audioUrls: mediaUrls('audio', blocks, data, baseUrl),
    probability: 0,
    url,
  };
  const pageEvidence = { article: record, data, teasers, url, body: articleBody, pageLinkDensity: body?.pageLinkDensity ?? 0, hasDate: dates.length > 0, hasAuthor: bylines.length > 0 };
  const pageFeatures = articlePageFeatures(pageEvidence);
  article.probability = articleProbability(pageFeatures, models.articlePage);
  const evidence: ArticleModelEvidence = { pageFeatures, headlineCandidates: candidates, authorCandidates: bylines, dateCandidates: dates };
  // Last: cleaning the other candidates prunes the tree the chosen blocks' fields were read from.
  if (body?.candidates) {
    evidence.bodyCandidates = body.candidates.map((candidate) => {
      if (candidate.blocks === blocks) return { features: candidate.features, text: articleBody };
      cleanContent(candidate.blocks, body.core);
      const text = renderText(candidate.blocks, titles);
      return { features: candidate.features, text: structuredBodyText(record, text) ?? text };
    });
  }
  return { article: withoutEmptyFields(article), evidence };
}

/**
 * The page's own body text (JSON-LD articleBody) wins when the DOM gave much less of it. Measured
 * once its tags and spaces are gone: a template's indentation (mashable's articleBody is two
 * thirds blanks) made a full DOM body look like less than half of it.
 */
const STRUCTURED_BODY_MIN_CHARS = 500;
const STRUCTURED_BODY_SHARE = 0.5;

function structuredBodyText(record: StructuredRecord | undefined, domText: string): string | undefined {
  const structured = propertyText(record, 'articleBody')
    ?.replace(/<[^>]+>/g, '\n')
    .split(/\n+/)
    .map((line) => normalizeSpace(line))
    .filter(Boolean)
    .join('\n');
  if (!structured || structured.length < STRUCTURED_BODY_MIN_CHARS || domText.length >= structured.length * STRUCTURED_BODY_SHARE) return undefined;
  return structured;
}

/** The page's own summary, else the body's opening, cut at a word. */
function articleDescription(record: StructuredRecord | undefined, data: StructuredData, articleBody: string): string | undefined {
  const given = normalizeSpace((propertyText(record, 'description') ?? metaValue(data, 'og:description', 'description', 'twitter:description'))?.replace(/<[^>]+>/g, ' '));
  if (given) return given;
  const opening = articleBody.split('\n')[0] ?? '';
  return opening.length <= GENERATED_DESCRIPTION_CHARS ? opening || undefined : `${opening.slice(0, GENERATED_DESCRIPTION_CHARS).replace(/\s+\S*$/, '')}…`;
}

function withoutEmptyFields(article: Article): Article {
  const record = article as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete record[key];
  }
  return article;
}

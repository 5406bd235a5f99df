import { ExtractionModels, SHIPPED_MODELS, extractArticle, extractProduct } from '@crawlhub/extraction';
import { CorpusPage, foldOf, runPage, siteOf, withModels } from '../../bench/extraction/cross-validation';
import { countField, emptyFieldCounts, fieldF1, rocAuc } from '../../bench/extraction/field-score';
import { fitLogistic } from '../../bench/extraction/logistic-fit';

describe('article field metric (issue 19)', () => {
  it('matches lowercase word tokens; drops a leading "by" from authors; compares dates as YYYY-MM-DD', () => {
    const counts = emptyFieldCounts();
    countField(counts, 'author', 'By Jane  DOE', 'Jane Doe');
    countField(counts, 'date', '2025-09-04T10:00:00+02:00', '2025-09-04');
    countField(counts, 'headline', 'Rivers rise!', 'Rivers rise after rain');
    countField(counts, 'headline', undefined, 'Unanswered');
    countField(counts, 'headline', 'Answered without truth', null);
    // 4 answered, 4 with a truth, 2 right
    expect(counts).toEqual({ answered: 4, withTruth: 4, right: 2 });
    expect(fieldF1(counts)).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5 });
  });

  it('ROC AUC: 1 when every positive outranks every negative, 0.5 for ties', () => {
    expect(rocAuc([0.9, 0.8], [0.1, 0.2])).toBe(1);
    expect(rocAuc([0.5, 0.5], [0.5])).toBe(0.5);
    expect(rocAuc([0.1], [0.9])).toBe(0);
  });
});

describe('site-grouped folds', () => {
  it('puts every page of a site (with or without www.) in the same fold', () => {
    expect(siteOf('https://www.example.com/a')).toBe('example.com');
    expect(foldOf(siteOf('https://www.example.com/a'))).toBe(foldOf(siteOf('http://example.com/b/c')));
    const folds = new Set(Array.from({ length: 200 }, (_, i) => foldOf(`site-${i}.example`)));
    expect(folds.size).toBe(5);
  });
});

describe('cross-validating by re-applying models to evidence', () => {
  const page = (html: string, url: string): CorpusPage => ({ dataset: 'wcxb-dev', id: 'x', url, html, site: siteOf(url), fold: 0, pageType: 'article', truth: {} });
  const prose = (topic: string) => `${topic} has changed the city, officials said on Monday, and residents, shop owners and commuters all felt it during the long week of repairs.`;
  const pages = [
    page(`<html><head><title>Rivers rise | Daily</title><meta name="author" content="Jane Doe"><meta property="og:title" content="Rivers rise after rain | Daily"></head><body><h1>Rivers rise</h1><article><p>${prose('Rain')}</p><p>${prose('Water')}</p></article></body></html>`, 'https://news.example/2025/01/02/rivers-rise'),
    page(`<html><head><title>Shop</title><script type="application/ld+json">{"@type":"Product","name":"Kettle","sku":"K-1","offers":{"@type":"Offer","price":"19.90","priceCurrency":"EUR"}}</script></head><body><h1>Kettle</h1><p class="price">€19.90</p><button>Add to cart</button></body></html>`, 'https://shop.example/kettle'),
  ];
  // Models that decide differently from the shipped ones: the <h1> as headline, page types from one feature each.
  const examples = (feature: string) => [{ features: { [feature]: 1 }, label: true }, { features: { [feature]: 0 }, label: false }];
  const other: ExtractionModels = {
    headline: fitLogistic(examples('from_h1'), ['from_h1']),
    author: fitLogistic(examples('from_meta'), ['from_meta']),
    date: fitLogistic(examples('from_url'), ['from_url']),
    articlePage: fitLogistic(examples('datedPath'), ['datedPath']),
    productPage: fitLogistic(examples('identifier'), ['identifier']),
  };

  it('gives what the engine gives when it runs with those models (the body model is applied at extraction, so the run has theirs)', () => {
    for (const p of pages) {
      const reapplied = withModels(runPage(p, { ...SHIPPED_MODELS, body: other.body }), other);
      expect(reapplied.article).toEqual(extractArticle(p.html, p.url, { articleBodyRaw: false }, other));
      expect(reapplied.product).toEqual(extractProduct(p.html, p.url, other));
    }
    expect(extractArticle(pages[0].html, pages[0].url, {}, other)).toMatchObject({ headline: 'Rivers rise', author: 'Jane Doe', datePublished: '2025-01-02T00:00:00' });
  });
});

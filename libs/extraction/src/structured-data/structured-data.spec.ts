import { parseLightPage } from '../dom';
import { firstRecord, findRecords, metaValue, propertyRecords, propertyText } from './query';
import { readStructuredData } from './read-structured-data';
import { structuredBreadcrumbs } from './breadcrumbs';

const URL = 'https://shop.example/p/1';
const read = (html: string) => readStructuredData(parseLightPage(html), URL);
const ldPage = (...scripts: string[]) => `<html><head>${scripts.map((s) => `<script type="application/ld+json">${s}</script>`).join('')}</head><body></body></html>`;

describe('JSON-LD', () => {
  it('reads a Product with a nested Offer and a Brand object', () => {
    const data = read(ldPage('{"@context":"https://schema.org","@type":"Product","name":"Kettle","brand":{"@type":"Brand","name":"Acme"},"offers":{"@type":"Offer","price":12.5,"priceCurrency":"EUR"}}'));
    const product = firstRecord(data, ['Product'])!;
    expect(propertyText(product, 'name')).toBe('Kettle');
    expect(propertyText(product, 'brand')).toBe('Acme');
    expect(propertyText(propertyRecords(product, 'offers')[0], 'price')).toBe('12.5');
  });

  it('unrolls @graph, arrays, several scripts and @type arrays', () => {
    const data = read(ldPage('{"@graph":[{"@type":"WebPage","name":"w"},{"@type":["Product","Thing"],"name":"P"}]}', '[{"@type":"Organization","name":"O"}]'));
    expect(data.records.map((r) => r.types[0])).toEqual(['WebPage', 'Product', 'Organization']);
    expect(propertyText(firstRecord(data, ['Product']), 'name')).toBe('P');
  });

  it('tolerates comments, CDATA, trailing commas, raw newlines in strings and junk after the object', () => {
    const data = read(ldPage('<!--\n{"@type":"Product", /* note */ "name":"Two\nlines", "sku":"A1",}\n-->', '{"@type":"Offer","price":"3"};'));
    expect(propertyText(firstRecord(data, ['Product']), 'sku')).toBe('A1');
    expect(propertyText(firstRecord(data, ['Offer']), 'price')).toBe('3');
  });

  it('decodes entities left in strings and strips vocabulary prefixes from types', () => {
    const data = read(ldPage('{"@type":"http://schema.org/Product","name":"Salt &amp; Pepper"}'));
    expect(propertyText(firstRecord(data, ['Product']), 'name')).toBe('Salt & Pepper');
  });

  it('decodes every named and numeric entity (one out of range as U+FFFD, never a failure) and leaves bare ampersands', () => {
    const data = read(ldPage('{"@type":"Product","name":"Caf&eacute; &mdash; &#x1F600; &#99999999;","url":"https://shop.test/p?a=1&copy=2"}'));
    const product = firstRecord(data, ['Product']);
    expect(propertyText(product, 'name')).toBe('Café — 😀 \uFFFD');
    expect(propertyText(product, 'url')).toBe('https://shop.test/p?a=1&copy=2');
  });

  it('finds nested records and prefers the order of the types asked for', () => {
    const data = read(ldPage('{"@type":"WebPage","mainEntity":{"@type":"Article","headline":"A"}}', '{"@type":"NewsArticle","headline":"N"}'));
    expect(findRecords(data, ['Article', 'NewsArticle']).map((r) => propertyText(r, 'headline'))).toEqual(['A', 'N']);
    expect(propertyText(firstRecord(data, ['NewsArticle', 'Article']), 'headline')).toBe('N');
  });
});

describe('microdata', () => {
  it('reads nested items and content, href, src and datetime values, urls resolved', () => {
    const data = read(`<html><head><base href="https://cdn.example/img/"></head><body>
      <div itemscope itemtype="http://schema.org/Product">
        <h1 itemprop="name"> Blue  kettle </h1><img itemprop="image" src="k.jpg">
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <span itemprop="price" content="1299.00">1.299,00 €</span>
          <link itemprop="availability" href="https://schema.org/InStock">
        </div>
        <time itemprop="releaseDate" datetime="2021-01-02">2 Jan</time>
      </div></body></html>`);
    const product = firstRecord(data, ['Product'])!;
    expect(data.records).toHaveLength(1);
    expect(propertyText(product, 'name')).toBe('Blue kettle');
    expect(propertyText(product, 'image')).toBe('https://cdn.example/img/k.jpg');
    expect(propertyText(product, 'releaseDate')).toBe('2021-01-02');
    const offer = propertyRecords(product, 'offers')[0];
    expect(propertyText(offer, 'price')).toBe('1299.00');
    expect(propertyText(offer, 'availability')).toBe('https://schema.org/InStock');
  });
});

describe('RDFa lite', () => {
  it('reads typeof/property items with prefixed terms', () => {
    const data = read(`<html><body><div vocab="http://schema.org/" typeof="Product"><span property="name">Mug</span>
      <div property="offers" typeof="Offer"><meta property="schema:price" content="7.90"></div></div></body></html>`);
    const product = firstRecord(data, ['Product'])!;
    expect(product.source).toBe('rdfa');
    expect(propertyText(propertyRecords(product, 'offers')[0], 'price')).toBe('7.90');
  });
});

describe('meta tags', () => {
  it('keys OpenGraph, Twitter and name tags by lower-case name', () => {
    const data = read(`<html><head><meta property="og:Title" content="OG title"><meta name="twitter:title" content="T">
      <meta property="product:price:amount" content="9.99"><meta name="description" content=" D "></head></html>`);
    expect(metaValue(data, 'og:title')).toBe('OG title');
    expect(metaValue(data, 'missing', 'twitter:title')).toBe('T');
    expect(metaValue(data, 'product:price:amount')).toBe('9.99');
    expect(metaValue(data, 'description')).toBe('D');
  });

  it("keys a <meta itemprop> outside any item by its itemprop (the page's own), not one inside an item", () => {
    const data = read(`<html><head><meta itemprop="datePublished" content="2020-12-23T11:48:54-0800"><meta itemprop="author" content="Linny and Peter"></head>
      <body><div itemscope itemtype="https://schema.org/Review"><meta itemprop="dateCreated" content="2019-01-01"></div></body></html>`);
    expect(metaValue(data, 'datepublished')).toBe('2020-12-23T11:48:54-0800');
    expect(metaValue(data, 'author')).toBe('Linny and Peter');
    expect(metaValue(data, 'datecreated')).toBeUndefined();
  });
});

describe('breadcrumbs', () => {
  it('orders a BreadcrumbList by position and resolves links', () => {
    const data = read(ldPage('{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":2,"name":"Kettles","item":"/kettles"},{"@type":"ListItem","position":1,"item":{"@id":"https://shop.example/","name":"Home"}}]}'));
    expect(structuredBreadcrumbs(data, URL)).toEqual([
      { name: 'Home', link: 'https://shop.example/' },
      { name: 'Kettles', link: 'https://shop.example/kettles' },
    ]);
  });
});

describe('type names', () => {
  it('match whatever case the page writes them in', () => {
    const data = read(ldPage('{"@type":"product","name":"lower"}'));
    expect(propertyText(firstRecord(data, ['Product']), 'name')).toBe('lower');
  });
});

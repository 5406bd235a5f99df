import { extractProduct } from './extract-product';

const URL = 'https://shop.example/kettles/blue-kettle-42';
const page = (head: string, body: string) => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

const PRODUCT_LD = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Blue Kettle 1.7 l',
  sku: 'BK-42',
  mpn: 'KT1700B',
  gtin13: '4006381333931',
  brand: { '@type': 'Brand', name: 'Acme' },
  image: ['/img/kettle-front.jpg', 'https://cdn.example/kettle-side.jpg'],
  description: '<p>A <b>fast</b> kettle.</p>',
  aggregateRating: { '@type': 'AggregateRating', ratingValue: '4,5', bestRating: '5', reviewCount: '1,204' },
  additionalProperty: [{ '@type': 'PropertyValue', name: 'Capacity', value: '1.7 l' }],
  offers: { '@type': 'Offer', price: '39.90', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
};

describe('extractProduct from structured data', () => {
  const product = extractProduct(page(jsonLd(PRODUCT_LD), '<h1>Blue Kettle 1.7 l</h1><span class="price">39,90 €</span><button>Add to cart</button>'), URL);

  it('reads name, codes, brand and description (HTML stripped)', () => {
    expect(product).toMatchObject({ name: 'Blue Kettle 1.7 l', sku: 'BK-42', mpn: 'KT1700B', brand: 'Acme', description: 'A fast kettle.' });
    expect(product.gtin).toEqual([{ type: 'ean13', value: '4006381333931' }]);
  });

  it('gives the offer with a dot-decimal price, the currency as the page shows it and the availability', () => {
    expect(product.offers).toEqual([{ price: '39.90', currency: '€', availability: 'InStock' }]);
  });

  it('resolves images against the page and takes the first as the main image', () => {
    expect(product.mainImage).toBe('https://shop.example/img/kettle-front.jpg');
    expect(product.images).toEqual(['https://shop.example/img/kettle-front.jpg', 'https://cdn.example/kettle-side.jpg']);
  });

  it('reads the rating as numbers and the additional properties', () => {
    expect(product.aggregateRating).toEqual({ ratingValue: 4.5, bestRating: 5, reviewCount: 1204 });
    expect(product.additionalProperty).toEqual([{ name: 'Capacity', value: '1.7 l' }]);
  });

  it('is sure the page is a product page', () => {
    expect(product.probability).toBeGreaterThan(0.8);
    expect(product.url).toBe(URL);
  });
});

describe('extractProduct from the visible page', () => {
  const body = `
    <nav class="breadcrumbs"><ol><li><a href="/">Home</a></li><li><a href="/kettles">Kettles</a></li><li>Blue Kettle</li></ol></nav>
    <h1>Blue Kettle</h1>
    <div class="price-box"><s class="price-old">49,90 €</s> <span class="price">1.299,00 €</span></div>
    <div class="price-monthly">from 12,00 € / month</div>
    <p id="availability">Derzeit nicht verfügbar.</p>
    <ul><li><b>Art.-Nr.:</b> 778899</li><li>Marke: Acme</li></ul>
    <div class="product-specs"><table><tr><th>Power</th><td>2200 W</td></tr><tr><th>Colour:</th><td>Blue</td></tr></table></div>`;
  const product = extractProduct(page('<meta property="og:image" content="/img/k.jpg">', body), URL);

  it('takes the current price, not the struck-out one nor the instalment', () => {
    expect(product.offers?.[0]).toMatchObject({ price: '1299.00', currency: '€' });
  });

  it('reads an out-of-stock notice in German', () => {
    expect(product.offers?.[0].availability).toBe('OutOfStock');
  });

  it('reads the sku and brand under their labels', () => {
    expect(product.sku).toBe('778899');
    expect(product.brand).toBe('Acme');
  });

  it('reads the breadcrumb trail, the name from the heading and the og:image', () => {
    expect(product.breadcrumbs).toEqual([
      { name: 'Home', link: 'https://shop.example/' },
      { name: 'Kettles', link: 'https://shop.example/kettles' },
      { name: 'Blue Kettle' },
    ]);
    expect(product.name).toBe('Blue Kettle');
    expect(product.mainImage).toBe('https://shop.example/img/k.jpg');
  });

  it('reads spec tables as additional properties', () => {
    expect(product.additionalProperty).toEqual([
      { name: 'Power', value: '2200 W' },
      { name: 'Colour', value: 'Blue' },
    ]);
  });
});

describe('extractProduct price where the record and the page disagree', () => {
  const priceOf = (offer: Record<string, unknown>, body: string) => extractProduct(page(jsonLd({ '@type': 'Product', name: 'Loke Jacket', offers: { '@type': 'Offer', ...offer } }), `<h1>Loke Jacket</h1>${body}`), URL).offers?.[0];

  it('takes the sale price the page shows where the record states the one it strikes out', () => {
    // Modelled on WCXB's hellyhansen.com: the record says 130, the page shows $98.00 beside the old $130.00.
    const box = '<div class="productPrice_root product_productPrice"><span><span>$98.00</span></span><span class="productPrice_oldPrice"><span>$130.00</span></span></div>';
    expect(priceOf({ price: '130', priceCurrency: 'USD' }, box)).toMatchObject({ price: '98.00', currency: '$' });
    // WooCommerce's sale markup: the old price in <del>.
    const woo = '<p class="price"><del><span class="woocommerce-Price-amount amount">$130.00</span></del> <ins><span class="woocommerce-Price-amount amount">$98.00</span></ins></p>';
    expect(priceOf({ price: '130', priceCurrency: 'USD' }, woo)).toMatchObject({ price: '98.00' });
  });

  it('keeps the record\'s price where the page shows it unstruck, or strikes it out only in another product\'s block', () => {
    // Modelled on WCXB's bestbuy.com: the page reads "$1,099.99", then "The price was $1,199.99".
    expect(priceOf({ price: '1099.99' }, '<div class="priceView-customer-price">$1,099.99</div><div class="pricing-price__regular-price">The price was $1,199.99</div>')?.price).toBe('1099.99');
    const related = '<span class="price">$98.00</span><div class="related-products"><span class="price"><del>$130.00</del></span></div>';
    expect(priceOf({ price: '130' }, related)?.price).toBe('130');
  });

  it('takes the shown price where the record states it without VAT, within what a VAT rate adds', () => {
    // Modelled on WCXB's jococups.com (WooCommerce): the record's 27.23 AUD without GST, the page's "$ 29.95" with it.
    const exTax = { price: '27.23', priceCurrency: 'AUD', priceSpecification: { price: '27.23', priceCurrency: 'AUD', valueAddedTaxIncluded: 'false' } };
    const shown = (amount: string) => `<p class="price"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span> ${amount}</bdi></span></p>`;
    expect(priceOf(exTax, shown('29.95'))).toMatchObject({ price: '29.95', currency: '$' });
    expect(priceOf(exTax, shown('89.95'))?.price).toBe('27.23');
    expect(priceOf({ price: '27.23' }, shown('29.95'))?.price).toBe('27.23');
  });

  it('reads the price to pay from the price specifications, not the list price beside it', () => {
    // Modelled on WCXB's mybirdbuddy.eu: a ListPrice specification beside the price.
    const specifications = [
      { '@type': 'UnitPriceSpecification', price: '249.00', priceCurrency: 'EUR', priceType: 'https://schema.org/ListPrice' },
      { '@type': 'UnitPriceSpecification', price: '149.00', priceCurrency: 'EUR' },
    ];
    expect(priceOf({ priceSpecification: specifications }, '')?.price).toBe('149.00');
  });
});

describe('extractProduct price from the page alone, by its labels and under the heading', () => {
  const priceOf = (body: string) => extractProduct(page('', body), URL).offers?.[0]?.price;

  it("takes no price under a label of the last 30 days' lowest price nor a former price ('The price was')", () => {
    // Modelled on WCXB's zalando.co.uk (EU Omnibus labels in a carousel) and bestbuy.com (a visually hidden "The price was").
    expect(priceOf('<h1>Faux leather jacket</h1><ul class="tiles"><li>Last lowest price: €39.99 -30%</li></ul>')).toBeUndefined();
    expect(priceOf('<h1>Surface Laptop</h1><p>Niedrigster Preis der letzten 30 Tage: 39,99 €</p>')).toBeUndefined();
    expect(priceOf('<h1>Surface Laptop</h1><p>The price was $1,199.99</p>')).toBeUndefined();
    expect(priceOf('<h1>Surface Laptop</h1><p>Price: $1,099.99</p>')).toBe('1099.99');
  });

  it("skips the prices of other products' tiles (links holding a picture), not a price that is a text link", () => {
    // Modelled on WCXB's karminhairtools.com: a grid of linked tiles above the product's own WooCommerce price.
    const tile = (amount: string) => `<div class="product-item"><a href="/product/other-${amount}"><img src="/t.jpg"><p><ins><span class="woocommerce-Price-amount amount">$${amount}</span></ins></p></a></div>`;
    const own = '<div class="right"><p><ins><span class="woocommerce-Price-amount amount">$101.97</span></ins></p></div>';
    expect(priceOf(`<div class="product-items">${tile('56.97')}${tile('68.97')}</div><h1>G3 Pro Hair Dryer</h1>${own}`)).toBe('101.97');
    // Modelled on amazon.de: the price is a link to the offers.
    expect(priceOf('<h1>Filter</h1><a href="/gp/offer-listing/B0"><span class="a-price">8,71 €</span></a>')).toBe('8.71');
  });

  it('reads the amount under a heading of several block lines, before a tax note', () => {
    // Modelled on WCXB's zalando.co.uk: the heading holds the brand and the name as blocks, the price reads "€49.99 VAT included".
    const heading = '<h1><span style="display:block">Bershka</span><div>Faux leather jacket - black</div></h1>';
    expect(priceOf(`${heading}<p><span>€49.99</span> <span>VAT included</span></p>`)).toBe('49.99');
    expect(priceOf(`${heading}<p>€49.99</p>`)).toBe('49.99');
    expect(priceOf('<h1>Wasserkocher</h1><p>1.299,00 € inkl. 19% MwSt.</p>')).toBe('1299.00');
    expect(priceOf('<h1>Wasserkocher</h1><p>€12 for 3 more</p>')).toBeUndefined();
  });
});

describe('extractProduct availability', () => {
  it('believes an enabled add-to-cart button over a stale OutOfStock record', () => {
    const ld = jsonLd({ '@type': 'Product', name: 'P', offers: { '@type': 'Offer', price: '5', availability: 'OutOfStock' } });
    expect(extractProduct(page(ld, '<button>Add to your basket</button>'), URL).offers?.[0].availability).toBe('InStock');
    expect(extractProduct(page(ld, '<button disabled>Add to basket</button>'), URL).offers?.[0].availability).toBe('OutOfStock');
  });

  it('reads an enabled add-to-cart button as InStock where nothing states the availability', () => {
    // A shop theme's product form (modelled on WCXB's deathwishcoffee.com): no stock notice for a product in stock.
    const form = (button: string) => `<h1>Coffee</h1><span class="price">$19.99</span><form action="/cart/add">${button}</form>`;
    expect(extractProduct(page('', form('<button type="submit" name="add" class="product-form__submit">Add to cart</button>')), URL).offers?.[0].availability).toBe('InStock');
  });

  it('reads a disabled button still labelled add-to-cart as InStock where nothing states it, and one relabelled sold out as OutOfStock', () => {
    // Modelled on iFixit and Helly Hansen: the button waits for the scripts or a size; Shopify themes relabel it when there is no stock.
    const availabilityOf = (button: string) => extractProduct(page('', `<h1>Pro Tech Toolkit</h1><span class="price">$74.99</span>${button}`), URL).offers?.[0].availability;
    expect(availabilityOf('<button disabled class="relative flex"><span>Loading...</span>Add to cart</button>')).toBe('InStock');
    expect(availabilityOf('<button aria-disabled="true">Add to cart</button>')).toBe('InStock');
    expect(availabilityOf('<button disabled name="add">Sold out</button>')).toBe('OutOfStock');
    expect(availabilityOf('<p>Ships worldwide.</p>')).toBeUndefined();
  });

  it("keeps a sold-out notice over other products' buy buttons in a slider", () => {
    // Modelled on WCXB's mybirdbuddy.eu: the feeder is sold out, a slider below sells its accessories.
    const slider = `<div class="bb-slider"><div class="glide__track"><ul class="glide__slides">${'<li class="glide__slide"><a class="button add_to_cart_button">Buy Now</a></li>'.repeat(3)}</ul></div></div>`;
    const html = `<h1>Smart Bird Feeder Pro</h1><p class="stock out-of-stock">Out of stock</p><button class="single_add_to_cart_button disabled" disabled>Out of Stock</button>${slider}`;
    expect(extractProduct(page('', html), URL).offers?.[0].availability).toBe('OutOfStock');
  });

  it.each([
    ['Out of stock', 'OutOfStock'],
    ['Rupture de stock', 'OutOfStock'],
    ['Esaurito', 'OutOfStock'],
    ['Nur noch 3 auf Lager', 'InStock'],
    ['In stock.', 'InStock'],
  ])('reads the stock notice "%s"', (notice, availability) => {
    expect(extractProduct(page('', `<h1>P</h1><div class="stock-status">${notice}</div>`), URL).offers?.[0].availability).toBe(availability);
  });
});

describe('extractProduct fields without a valid value', () => {
  it('leaves them out instead of giving empty values', () => {
    const product = extractProduct(page('', '<p>Nothing to sell here.</p>'), URL);
    expect(Object.keys(product).sort()).toEqual(['probability', 'url']);
  });

  it('ignores a zero price and an all-zero gtin', () => {
    const ld = jsonLd({ '@type': 'Product', name: 'P', gtin13: '0000000000000', offers: { '@type': 'Offer', price: '0' } });
    const product = extractProduct(page(ld, ''), URL);
    expect(product.offers).toBeUndefined();
    expect(product.gtin).toBeUndefined();
  });
});

describe('extractProduct probability', () => {
  const tile = (i: number) => jsonLd({ '@type': 'Product', name: `P${i}`, offers: { '@type': 'Offer', price: `${i}.00` } });
  const card = (i: number) => `<div class="card"><a href="/p/${i}">Product ${i}</a><span class="price">$${i}.00</span><button>Add to cart</button></div>`;

  it('is low on a category listing of many products', () => {
    const listing = extractProduct(page(Array.from({ length: 12 }, (_, i) => tile(i + 1)).join(''), Array.from({ length: 12 }, (_, i) => card(i + 1)).join('')), URL);
    expect(listing.probability).toBeLessThan(0.3);
  });

  it('is low on a home page without a product', () => {
    const home = extractProduct(page('<meta property="og:type" content="website">', '<h1>Welcome to our shop</h1><p>New arrivals every week.</p>'), 'https://shop.example/');
    expect(home.probability).toBeLessThan(0.2);
  });

  it('is high on one product with a price, a code and a cart button even without structured data', () => {
    const single = extractProduct(page('<meta property="og:type" content="product">', '<h1>Blue Kettle</h1><span class="price">$39.90</span><p>SKU: BK-42</p><button>Add to cart</button>'), URL);
    expect(single.probability).toBeGreaterThan(0.7);
  });
});

describe('extractProduct probability on an article', () => {
  it('is low on a news article whose markup names a paywall product', () => {
    const ld = jsonLd({ '@type': 'NewsArticle', headline: 'Banks', isPartOf: { '@type': ['CreativeWork', 'Product'], name: 'NEWS', productID: 'news.example:basic' } });
    const article = extractProduct(page(`<meta property="og:type" content="article">${ld}`, '<h1>Banks</h1><p>Long story.</p>'), URL);
    // The fitted page-type model weighs the article record against the product record and its code (it was < 0.2 by the hand-set rule): below a product page's.
    expect(article.probability).toBeLessThan(0.7);
  });
});

describe('extractProduct brand', () => {
  it('keeps the name from a labelled brand element and drops template placeholders', () => {
    const microdata = (brand: string) => `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">P</h1><span itemprop="brand">${brand}</span></div>`;
    expect(extractProduct(page('', microdata('More from the brand: Acme')), URL).brand).toBe('Acme');
    expect(extractProduct(page('', microdata('$metabrand')), URL).brand).toBeUndefined();
  });
});

describe('extractProduct currency', () => {
  it('is the mark the page writes beside the amount, not the record\'s ISO code', () => {
    const ld = jsonLd({ '@type': 'Product', name: 'P', offers: { '@type': 'Offer', price: '249', priceCurrency: 'RUB' } });
    expect(extractProduct(page(ld, '<h1>P</h1><div><span>Цена</span> <b>249 ₽</b></div>'), URL).offers?.[0]).toMatchObject({ price: '249', currency: '₽' });
    expect(extractProduct(page(ld, '<h1>P</h1>'), URL).offers?.[0]).toMatchObject({ price: '249', currency: 'RUB' });
  });
});

describe('extractProduct on a page of 20,000 unclosed tags', () => {
  it('still reads the product (the tree is capped at 512 levels, no stack overflow)', () => {
    const product = extractProduct(`<html><body>${'<span>'.repeat(20_000)}<h1>Steel kettle</h1><div class="price">€ 49,90</div></body></html>`, 'https://shop.example/kettle');
    expect(product.name).toBe('Steel kettle');
    expect(product.offers?.[0]?.price).toBe('49.90');
  });
});

describe('extractProduct mpn', () => {
  it('is no mpn when it repeats the shop\u2019s own sku', () => {
    const html = `<html><head><script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'Desktop', sku: '144432', mpn: '144432', offers: { price: '1679', priceCurrency: 'ILS' } })}</script></head><body><h1>Desktop</h1></body></html>`;
    const product = extractProduct(html, 'https://shop.example/Prod/144432/');
    expect(product.sku).toBe('144432');
    expect(product.mpn).toBeUndefined();
  });
});

describe('extractProduct prices whose cents are set apart', () => {
  const priceOf = (body: string) => extractProduct(`<html><body><h1>Lamp</h1>${body}</body></html>`, 'https://shop.example/p/1').offers?.[0]?.price;

  it('joins superscript cents to the units ("$12<sup>99</sup>" is 12.99, not 1299)', () => {
    expect(priceOf('<span class="price">$12<sup>99</sup></span>')).toBe('12.99');
    expect(priceOf('<span class="price">$12<sup>.99</sup></span>')).toBe('12.99');
  });

  it('joins a "cents" part to a units part with thousands', () => {
    expect(priceOf('<span class="price">$<span class="dollars">1,299</span><span class="cents">99</span></span>')).toBe('1299.99');
  });

  it('joins the cents a page sets beside the element holding the currency and units (IKEA\'s price module)', () => {
    const ikea = '<span class="price"><span class="price__nowrap"><span class="price__currency">$</span><span class="price__integer">79</span></span><span class="price__decimal"><span class="price__separator">.</span>99</span></span>';
    expect(priceOf(ikea)).toBe('79.99');
    expect(priceOf('<span class="price-units">€1.299</span><span class="price-decimals">,00</span>')).toBe('1299.00');
    // A next sibling that is no cents part leaves the price as it is.
    expect(priceOf('<span class="price">$79</span><span class="note">99</span>')).toBe('79');
  });

  it('joins two digits that close the price element after plain units (Best Buy Canada\'s "rightEndPrice"), not two digits that other text follows', () => {
    expect(priceOf('<div class="price_FHDfG salePrice">$229<span class="rightEndPrice_6y_hS">99</span></div>')).toBe('229.99');
    expect(priceOf('<div class="price">$229<span class="units">99</span> <span class="note">each</span></div>')).toBe('22999');
  });

  it('leaves a superscript that is no cents alone', () => {
    expect(priceOf('<span class="price">$12.99<sup>1</sup></span>')).toBe('12.99');
  });
});

describe('extractProduct price from class names of shops the rules were not written on', () => {
  const priceOf = (body: string) => extractProduct(`<html><body>${body}</body></html>`, 'https://shop.example/p/1').offers?.[0]?.price;

  it('takes a "discount price" as the reduced price to pay, a bare "discount" still as the saving (iHerb, PrestaShop themes)', () => {
    expect(priceOf('<h1>Almond thins</h1><div class="price"><span class="discount-price">2,88 €</span> <span class="list-price">3,20 €</span></div>')).toBe('2.88');
    expect(priceOf('<h1>Grill</h1><div class="prices"><span class="c-price--lg c-price--lg--discount">149,00 €</span> <span class="c-price--lg--old">199,00 €</span></div>')).toBe('149.00');
    expect(priceOf('<h1>Grill</h1><span class="discount">20,00 €</span> <span class="price">80,00 €</span>')).toBe('80.00');
  });

  it('reads past a type style that says "regular" (Nike\'s "weight-regular" on both the current and the struck-out amount)', () => {
    const nike = '<h1>Pegasus 41</h1><div id="price-container"><span class="nds-text weight-regular">$116.97</span><span class="nds-text weight-regular strikethrough">$145</span></div>';
    expect(priceOf(nike)).toBe('116.97');
  });

  it('reads a price in the main content that an unclosed menu tag leaves inside the nav (Sweetwater)', () => {
    expect(priceOf('<nav class="site-nav"><dropdown><div>Guitars</dropdown></div><main><h1>SM7dB</h1><div class="product-price--final">$549.00</div></main>')).toBe('549.00');
    // A price in a nav without a main around it is still the menu's.
    expect(priceOf('<nav class="site-nav"><div class="menu-price">$9.99</div></nav><h1>SM7dB</h1>')).toBeUndefined();
  });
});

describe('extractProduct price under the heading where no class names one', () => {
  const allbirds = (amountLine: string) =>
    `<html><body><main><h1>Men's Wool Runners</h1><p>4.7 (12,345 reviews)</p><div class="flex text-lg font-medium"><span class="text-black">${amountLine}</span></div>` +
    `<button>Add to cart</button></main></body></html>`;

  it('takes the first line of amounts with currency marks right under the h1 (Allbirds: utility classes only)', () => {
    expect(extractProduct(allbirds('$110'), URL).offers?.[0]).toMatchObject({ price: '110', currency: '$' });
    expect(extractProduct(allbirds('€25 €49'), URL).offers?.[0]?.price).toBe('25');
  });

  it('leaves a labelled or worded amount to the other rules and takes none far below the heading', () => {
    expect(extractProduct(allbirds('Free shipping over $75'), URL).offers?.[0]?.price).toBeUndefined();
    const farBelow = `<html><body><h1>Wool Runners</h1>${'<p>About the shoe.</p>'.repeat(20)}<p>$110</p></body></html>`;
    expect(extractProduct(farBelow, URL).offers).toBeUndefined();
  });

  it('does not count as evidence of a product page: an article showing a bare amount under its headline is as unlikely a product as without it', () => {
    const article = (amount: string) => `<html><head><meta property="og:type" content="article"></head><body><article><h1>The best laptop deals this week</h1>${amount}<p>${'Prices fell again. '.repeat(40)}</p></article></body></html>`;
    expect(extractProduct(article('<p>$429.99</p>'), URL).probability).toBe(extractProduct(article(''), URL).probability);
  });
});

describe('extractProduct price beside options', () => {
  it('takes no option\'s surcharge ("+20.00€" beside a warranty) for the price (MediaMarkt Portugal)', () => {
    const body = '<h1>Micro-ondas</h1><div class="price"><span class="bigprices"><b>109€</b> <b>109€</b> <span class="bigpricesrc">109</span></span></div>' +
      '<label><input type="checkbox"> Garantia 2 anos <span class="price-notice">+20.00€</span></label>';
    expect(extractProduct(`<html><body>${body}</body></html>`, URL).offers?.[0]?.price).toBe('109');
  });
});

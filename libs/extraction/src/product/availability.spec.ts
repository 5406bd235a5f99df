import { availabilityFromSchema, availabilityFromText, isOutOfStockNotice } from './availability';
import { extractProduct } from './extract-product';

describe('availabilityFromText', () => {
  it.each([
    ['Only 3 left in stock', 'InStock'],
    ['In stock online', 'InStock'],
    ['Usually dispatched within 2 to 3 days', 'InStock'],
    ['Auf Lager', 'InStock'],
    ['在庫あり', 'InStock'],
    ['Temporarily out of stock.', 'OutOfStock'],
    ['Derzeit nicht verfügbar.', 'OutOfStock'],
    ['Agotado', 'OutOfStock'],
    ['Niet op voorraad', 'OutOfStock'],
    ['Нет в наличии', 'OutOfStock'],
    ['在庫切れ', 'OutOfStock'],
    ['缺貨', 'OutOfStock'],
    ['품절', 'OutOfStock'],
    ['Notify me when available', 'OutOfStock'],
    ['Get notified by email when this product is in stock.', 'OutOfStock'],
    // Modelled on getit.co.il's price box, "המוצר אינו במלאי" (the product is not in stock), and its commented-out "במלאי".
    ['המוצר אינו במלאי', 'OutOfStock'],
    ['במלאי', 'InStock'],
    ['Není skladem', 'OutOfStock'],
    ['Skladem 3 ks', 'InStock'],
    ['Stokta yok', 'OutOfStock'],
    ['Slutsåld', 'OutOfStock'],
    ['Ikke på lager', 'OutOfStock'],
    ['På lager', 'InStock'],
    ['غير متوفر', 'OutOfStock'],
    ['Hết hàng', 'OutOfStock'],
    ['Stok tidak tersedia', 'OutOfStock'],
    ['Μη διαθέσιμο', 'OutOfStock'],
    ['Немає в наявності', 'OutOfStock'],
  ])('reads "%s" as %s', (text, expected) => {
    expect(availabilityFromText(text)).toBe(expected);
  });

  it('reads nothing into text that is no stock notice', () => {
    expect(availabilityFromText('Free returns within 30 days')).toBeUndefined();
  });
});

describe('availabilityFromSchema', () => {
  it('maps schema.org terms in any spelling', () => {
    expect(availabilityFromSchema('https://schema.org/OutOfStock')).toBe('OutOfStock');
    expect(availabilityFromSchema('http://schema.org/LimitedAvailability')).toBe('InStock');
    expect(availabilityFromSchema('in_stock')).toBe('InStock');
    expect(availabilityFromSchema('SoldOut')).toBe('OutOfStock');
  });

  it("maps Open Graph's product:availability terms", () => {
    expect(availabilityFromSchema('oos')).toBe('OutOfStock');
    expect(availabilityFromSchema('out of stock')).toBe('OutOfStock');
    expect(availabilityFromSchema('available for order')).toBe('InStock');
  });
});

describe('extractProduct availability from product meta tags', () => {
  // Modelled on WCXB's kineticlabs.com and brooklinen.com: no offer record, the shop's meta tags state it.
  const page = (head: string, body = '') =>
    `<html><head><meta property="og:type" content="product">${head}</head><body><h1>K2 HE keyboard</h1><span class="price">$130.00</span>${body}</body></html>`;

  it('reads product:availability where no offer states it', () => {
    expect(extractProduct(page('<meta property="product:availability" content="out of stock">'), 'https://shop.example/k2').offers?.[0]?.availability).toBe('OutOfStock');
    expect(extractProduct(page('<meta property="og:availability" content="oos">'), 'https://shop.example/k2').offers?.[0]?.availability).toBe('OutOfStock');
  });

  it("lets the offer's own availability win over the meta tag", () => {
    const record = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Product', name: 'K2', offers: { price: '130', priceCurrency: 'USD', availability: 'https://schema.org/InStock' } })}</script>`;
    expect(extractProduct(page(`${record}<meta property="product:availability" content="oos">`), 'https://shop.example/k2').offers?.[0]?.availability).toBe('InStock');
  });
});

describe('extractProduct availability from the page', () => {
  const availabilityOf = (body: string) => extractProduct(`<html><body><h1>Thing</h1><span class="price">€ 10,00</span>${body}</body></html>`, 'https://shop.example/p/1').offers?.[0]?.availability;

  it('reads a notice in an element named in Spanish, Italian or Dutch', () => {
    expect(availabilityOf('<div class="disponibilidad">Agotado</div>')).toBe('OutOfStock');
    expect(availabilityOf('<div class="disponibilita">Disponibile</div>')).toBe('InStock');
    expect(availabilityOf('<div class="voorraad">Niet op voorraad</div>')).toBe('OutOfStock');
  });

  it('reads a back-in-stock alert where the cart button would be as out of stock', () => {
    expect(availabilityOf('<button class="notify-me">Notify me when available</button>')).toBe('OutOfStock');
  });

  it('reads a restock alert and a discontinued notice by their class words', () => {
    // Modelled on WCXB's Squarespace shop (supernaturalkitchen.com) and iHerb.
    expect(availabilityOf('<div class="product-restock-notification"><span class="product-restock-cta">Get notified by email when this product is in stock.</span></div>')).toBe('OutOfStock');
    expect(availabilityOf('<section class="product-summary-unbuyable-message">This product is no longer available.</section>')).toBeUndefined();
    expect(availabilityOf('<section class="action-fixed-discontinued"><b>Discontinued</b> This product is no longer available.</section>')).toBe('OutOfStock');
  });
});

describe('an out-of-stock notice under the heading', () => {
  // Modelled on WCXB's kineticlabs.com: hashed classes, the notice a line under the product's name.
  const availabilityOf = (afterHeading: string) =>
    extractProduct(`<html><body><main><h1>Keychron K2 HE</h1><p class="p1dqz9ym">$130.00</p>${afterHeading}<p>Hall-effect switches.</p></main></body></html>`, 'https://shop.example/k2').offers?.[0]
      ?.availability;

  it('reads a line that starts with a sold-out phrase', () => {
    expect(availabilityOf('<div class="t1h0xtaj"><p class="p1dqz9ym">Out of stock</p></div>')).toBe('OutOfStock');
  });

  it('reads nothing into a line that names stock in passing, and an enabled cart button still wins', () => {
    expect(availabilityOf('<p>Chat is unavailable</p>')).toBeUndefined();
    expect(availabilityOf('<p>Out of stock</p><button>Add to cart</button>')).toBe('InStock');
  });

  it('tells a notice from a line that uses the phrase in passing', () => {
    expect(isOutOfStockNotice('Sold Out - Notify me when it\u2019s available')).toBe(true);
    expect(isOutOfStockNotice('Produto esgotado :(')).toBe(false);
  });
});

describe('add-to-cart buttons in more languages', () => {
  // Modelled on TMON's deal page: its "바로구매" (buy now) buttons were no cart button to the reader.
  const availabilityOf = (button: string) =>
    extractProduct(`<html><body><h1>딜</h1><div class="stock-state">품절</div>${button}</body></html>`, 'https://shop.example/deal/1').offers?.[0]?.availability;

  it.each(['<button>바로구매</button>', '<button>カートに入れる</button>', '<button>Sepete Ekle</button>', '<button>Vložit do košíku</button>', '<button>הוספה לסל</button>'])(
    'reads %s as the page selling the product',
    (button) => {
      expect(availabilityOf(button)).toBe('InStock');
    },
  );

  it('reads a plain button as no cart button', () => {
    expect(availabilityOf('<button>공유하기</button>')).toBe('OutOfStock');
  });
});

import { extractProduct } from './extract-product';

/**
 * The product markup of common shop platforms as their default themes write it, without
 * structured data (themes and plugins often drop it): rules that hold for them hold for
 * many sites the benchmark never saw.
 */
const page = (body: string) => `<!DOCTYPE html><html><head><title>Shop</title></head><body>${body}</body></html>`;

describe('extractProduct on shop platforms\u2019 default markup', () => {
  it('WooCommerce: sale price inside <ins>, stock count, SKU wrapper', () => {
    const product = extractProduct(
      page(`<div class="product type-product"><div class="summary entry-summary">
        <h1 class="product_title entry-title">Hoodie with Logo</h1>
        <p class="price"><del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#36;</span>45.00</bdi></span></del> <ins><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#36;</span>42.00</bdi></span></ins></p>
        <p class="stock in-stock">12 in stock</p>
        <form class="cart"><button type="submit" name="add-to-cart" class="single_add_to_cart_button button alt">Add to cart</button></form>
        <div class="product_meta"><span class="sku_wrapper">SKU: <span class="sku">woo-hoodie-logo</span></span> <span class="posted_in">Category: <a href="/c/hoodies" rel="tag">Hoodies</a></span></div>
      </div></div>`),
      'https://woo.example/product/hoodie-with-logo/',
    );
    expect(product.name).toBe('Hoodie with Logo');
    expect(product.offers?.[0]).toMatchObject({ price: '42.00', currency: '$', availability: 'InStock' });
    expect(product.sku).toBe('woo-hoodie-logo');
  });

  it('WooCommerce: out of stock', () => {
    const product = extractProduct(
      page(`<h1 class="product_title entry-title">Beanie</h1><p class="price"><span class="woocommerce-Price-amount amount"><bdi>18,00&nbsp;<span class="woocommerce-Price-currencySymbol">&euro;</span></bdi></span></p><p class="stock out-of-stock">Out of stock</p>`),
      'https://woo.example/product/beanie/',
    );
    expect(product.offers?.[0]).toMatchObject({ price: '18.00', currency: '€', availability: 'OutOfStock' });
  });

  it('Magento 2 (Luma): price wrapper, stock notice, SKU attribute', () => {
    const product = extractProduct(
      page(`<div class="product-info-main"><div class="page-title-wrapper product"><h1 class="page-title"><span class="base" data-ui-id="page-title-wrapper">Joust Duffle Bag</span></h1></div>
        <div class="product-info-price"><div class="price-box price-final_price" data-role="priceBox" data-product-id="1"><span class="price-container price-final_price tax weee"><span id="product-price-1" data-price-amount="34" data-price-type="finalPrice" class="price-wrapper "><span class="price">$34.00</span></span></span></div>
        <div class="product-info-stock-sku"><div class="stock available" title="Availability"><span>In stock</span></div>
        <div class="product attribute sku"><strong class="type">SKU</strong><div class="value">24-MB01</div></div></div></div>
        <button type="submit" title="Add to Cart" class="action primary tocart" id="product-addtocart-button"><span>Add to Cart</span></button></div>`),
      'https://magento.example/joust-duffle-bag.html',
    );
    expect(product.name).toBe('Joust Duffle Bag');
    expect(product.offers?.[0]).toMatchObject({ price: '34.00', currency: '$', availability: 'InStock' });
    expect(product.sku).toBe('24-MB01');
  });

  it('PrestaShop 1.7 (classic): current price beside the regular one, availability, reference', () => {
    const product = extractProduct(
      page(`<h1 class="h1">Hummingbird printed t-shirt</h1>
        <div class="product-prices"><div class="product-discount"><span class="regular-price">€23.90</span></div>
        <div class="product-price h5 has-discount"><div class="current-price"><span class="current-price-value" content="19.12">€19.12</span> <span class="discount discount-percentage">Save 20%</span></div></div>
        <div class="tax-shipping-delivery-label">Tax included</div></div>
        <span id="product-availability"><i class="material-icons rtl-no-flip product-available">&#xE5CA;</i> In stock</span>
        <div class="product-reference"><label class="label">Reference </label><span>demo_1</span></div>`),
      'https://presta.example/men/1-1-hummingbird-printed-t-shirt.html',
    );
    expect(product.name).toBe('Hummingbird printed t-shirt');
    expect(product.offers?.[0]).toMatchObject({ price: '19.12', currency: '€', availability: 'InStock' });
    expect(product.sku).toBe('demo_1');
  });

  it('Shopify (Dawn): sale price beside the compare-at price, sold-out button', () => {
    const product = extractProduct(
      page(`<div class="product__title"><h1>Ocean Blue Shirt</h1></div>
        <div class="price price--on-sale"><div class="price__container"><div class="price__sale"><span class="visually-hidden visually-hidden--inline">Regular price</span><span><s class="price-item price-item--regular">£50.00</s></span><span class="visually-hidden visually-hidden--inline">Sale price</span><span class="price-item price-item--sale price-item--last">£40.00</span></div></div></div>
        <button type="submit" name="add" class="product-form__submit button button--full-width" disabled><span>Sold out</span></button>`),
      'https://shopify.example/products/ocean-blue-shirt',
    );
    expect(product.name).toBe('Ocean Blue Shirt');
    expect(product.offers?.[0]).toMatchObject({ price: '40.00', currency: '£', availability: 'OutOfStock' });
  });
});

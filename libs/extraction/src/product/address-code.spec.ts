import { addressCode } from './address-code';
import { extractProduct } from './extract-product';

describe('addressCode', () => {
  it('reads the id a slug ends with, or a path segment that is an id', () => {
    expect(addressCode('https://dom.example.by/kitchen-pots/taller/TalleR_TR_1047-1609583.html')).toBe('1609583');
    expect(addressCode('https://www.example.com/product/227955/trail-25-pack')).toBe('227955');
    expect(addressCode('https://www.example.com/dp/B0D1PC8551')).toBe('B0D1PC8551');
  });

  it('prefers a parameter naming the product to the path', () => {
    expect(addressCode('https://www.example.com/store/122725?pid=260591')).toBe('260591');
    expect(addressCode('https://www.example.com/p/summit?sku=SS24-SD-3.0')).toBe('SS24-SD-3.0');
  });

  it('reads no code from words, short numbers or a variant parameter', () => {
    expect(addressCode('https://shop.example.com/products/geforce-rtx-4070-super?variant=41234567890')).toBeUndefined();
    expect(addressCode('https://www.example.com/2024/05/galaxy-s25-ultra/')).toBeUndefined();
    expect(addressCode('https://www.example.hr/Ortopedski_ulosci_sport-380?a_aid=portal')).toBeUndefined();
  });
});

describe('extractProduct sku from the address', () => {
  const voucher = (body: string) => `<html><body><h1>Gift voucher</h1><p>NT$ 1,290</p>${body}<button>Add to cart</button></body></html>`;

  it('falls back to the address on a page that sells, when neither a record nor a label names a code', () => {
    expect(extractProduct(voucher(''), 'https://www.example.com/store/122725?pid=260591').sku).toBe('260591');
  });

  it('keeps the code the page prints under a label', () => {
    expect(extractProduct(voucher('<p>SKU: GV-42</p>'), 'https://www.example.com/store/122725?pid=260591').sku).toBe('GV-42');
  });

  it('reads no sku from an article\u2019s address', () => {
    const article = '<html><body><h1>Nelson\u2019s OT goal lifts Isles</h1><p>The forward scored in overtime.</p></body></html>';
    expect(extractProduct(article, 'https://www.example.com/sports/article/Nelson-s-OT-goal-lifts-Isles-14848099.php').sku).toBeUndefined();
  });
});

import { labelledCode } from './labelled-codes';

describe('labelledCode', () => {
  it('reads codes after strong labels anywhere in a line, in several languages', () => {
    expect(labelledCode(['Kettle 1.7 l', 'Product code: 83810610'], 'sku')).toBe('83810610');
    expect(labelledCode(['Telefon Galaxy A01 Код товара: 01245'], 'sku')).toBe('01245');
    expect(labelledCode(['Art.-Nr. 4711-B'], 'sku')).toBe('4711-B');
    expect(labelledCode(['Item model number : A157S546'], 'mpn')).toBe('A157S546');
    expect(labelledCode(['EAN 4006381333931'], 'gtin')).toBe('4006381333931');
  });

  it('knows the labels retailers print beside a sku', () => {
    expect(labelledCode(['Cat. No. 466/7999'], 'sku')).toBe('466/7999');
    expect(labelledCode(['Catalogue number: 4667999'], 'sku')).toBe('4667999');
    expect(labelledCode(['Order number: AB-1234'], 'sku')).toBe('AB-1234');
    expect(labelledCode(['Stock code: 98765'], 'sku')).toBe('98765');
    expect(labelledCode(['Web ID: 4356789'], 'sku')).toBe('4356789');
    expect(labelledCode(['Internet #311545677'], 'sku')).toBe('311545677');
    expect(labelledCode(['Reference demo_1'], 'sku')).toBe('demo_1');
    expect(labelledCode(['SKU: woo-hoodie-logo'], 'sku')).toBe('woo-hoodie-logo');
  });

  it('reads a maker\u2019s part number after the short "MFR #" / "Mfg. Part No." labels', () => {
    // Modelled on B&H's code line: "BH #NID75024120 • MFR #1549".
    expect(labelledCode(['BH #NID75024120 • MFR #1549'], 'mpn')).toBe('1549');
    expect(labelledCode(['Mfg. Part No.: 7Z-4410'], 'mpn')).toBe('7Z-4410');
  });

  it('takes the value from the next line when the label stands alone (with a qualifier)', () => {
    expect(labelledCode(['Numero oggetto eBay:', '133588510845'], 'sku')).toBe('133588510845');
  });

  it('reads weak labels only at the start of a line or before a colon, and wants a digit in a code', () => {
    expect(labelledCode(['Inserisci il codice PROMO10 al pagamento'], 'sku')).toBeUndefined();
    expect(labelledCode(['Réf. QB737'], 'sku')).toBe('QB737');
    expect(labelledCode(['SKU: none'], 'sku')).toBeUndefined();
  });
});

describe('labelledCode for brands', () => {
  it('reads the rest of a labelled line, and no label inside a longer word', () => {
    expect(labelledCode(['Ver mais artigos da Marca: Panasonic'], 'brand')).toBe('Panasonic');
    expect(labelledCode(['Brands related to this category', 'Marketplace deals', 'Brand Outlet'], 'brand')).toBeUndefined();
  });
});

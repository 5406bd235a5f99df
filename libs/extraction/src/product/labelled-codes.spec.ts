import { labelledCode } from './labelled-codes';

describe('labelledCode', () => {
  it('reads codes after strong labels anywhere in a line, in several languages', () => {
    expect(labelledCode(['Kettle 1.7 l', 'Product code: 83810610'], 'sku')).toBe('83810610');
    expect(labelledCode(['Telefon Galaxy A01 Код товара: 01245'], 'sku')).toBe('01245');
    expect(labelledCode(['Art.-Nr. 4711-B'], 'sku')).toBe('4711-B');
    expect(labelledCode(['Item model number : A157S546'], 'mpn')).toBe('A157S546');
    expect(labelledCode(['EAN 4006381333931'], 'gtin')).toBe('4006381333931');
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

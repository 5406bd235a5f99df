import { currencyAmountsOnly, parsePrice, parsePrices } from './price';

describe('parsePrice', () => {
  it.each([
    ['1.299,00 €', '1299.00', '€'],
    ['$1,299.99', '1299.99', '$'],
    ['£12', '12', '£'],
    ['12,- €', '12', '€'],
    ["CHF 1'299.50", '1299.50', 'CHF'],
    ['44 890 тг.', '44890', 'тг.'],
    ['R$ 1.759,99', '1759.99', 'R$'],
    ['EUR 9,99', '9.99', 'EUR'],
    ['30,000원~', '30000', '원'],
  ])('reads %s as %s %s', (text, amount, currency) => {
    expect(parsePrice(text)).toEqual({ amount, currency });
  });

  it('takes a currency only when it stands right beside the amount', () => {
    expect(parsePrice('7 折 294 元')).toEqual({ amount: '7' });
    expect(parsePrices('7 折 294 元')[1]).toEqual({ amount: '294', currency: '元' });
    expect(parsePrice('12 kraftige Farben')).toEqual({ amount: '12' });
  });

  it('reads a range as its first (lowest) amount and finds nothing in text without digits', () => {
    expect(parsePrice('$10.00 – $20.00')).toEqual({ amount: '10.00', currency: '$' });
    expect(parsePrice('Preis auf Anfrage')).toBeUndefined();
  });
});

describe('currencyAmountsOnly', () => {
  it('reads a text of amounts with their currency marks', () => {
    expect(currencyAmountsOnly('$110')).toEqual([{ amount: '110', currency: '$' }]);
    expect(currencyAmountsOnly('€25€49')).toEqual([{ amount: '25', currency: '€' }, { amount: '49', currency: '€' }]);
    expect(currencyAmountsOnly('1.299,00 €')).toEqual([{ amount: '1299.00', currency: '€' }]);
  });

  it('reads nothing from a text with words, a label or an amount without a currency', () => {
    expect(currencyAmountsOnly('From $110')).toEqual([]);
    expect(currencyAmountsOnly('4.8 (1,204)')).toEqual([]);
    expect(currencyAmountsOnly('110')).toEqual([]);
    expect(currencyAmountsOnly('$25 gift card')).toEqual([]);
  });
});

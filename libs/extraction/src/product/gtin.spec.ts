import { toGtin } from './gtin';

describe('toGtin', () => {
  it('tells the kind by length and prefix when the check digit is right', () => {
    expect(toGtin('4006381333931')).toEqual({ type: 'ean13', value: '4006381333931' });
    expect(toGtin('978-3-16-148410-0')).toEqual({ type: 'isbn13', value: '9783161484100' });
    expect(toGtin('036000291452')).toEqual({ type: 'upc', value: '036000291452' });
    expect(toGtin('96385074')).toEqual({ type: 'gtin8', value: '96385074' });
    expect(toGtin('10012345678902')).toEqual({ type: 'gtin14', value: '10012345678902' });
    expect(toGtin('0-306-40615-2')).toEqual({ type: 'isbn10', value: '0306406152' });
  });

  it('refuses wrong check digits, all zeros and other lengths', () => {
    expect(toGtin('4006381333932')).toBeUndefined();
    expect(toGtin('0000000000000')).toBeUndefined();
    expect(toGtin('12345')).toBeUndefined();
  });
});

import { Gtin } from '../extraction.types';

/**
 * A trade item number with its kind, told by length (and check digit): 8 gtin8, 10 isbn10,
 * 12 upc, 13 ean13 (isbn13 under the 978/979 "Bookland" prefixes, ismn under 9790), 14 gtin14.
 * Numbers whose check digit is wrong, or all zeros, are not trade item numbers.
 */
export function toGtin(raw: string | undefined): Gtin | undefined {
  if (!raw) return undefined;
  const value = raw.replace(/[\s-]/g, '').toUpperCase();
  if (/^\d{9}[\dX]$/.test(value)) return isbn10CheckOk(value) ? { type: 'isbn10', value } : undefined;
  if (!/^\d+$/.test(value) || /^0+$/.test(value) || !gs1CheckOk(value)) return undefined;
  switch (value.length) {
    case 8:
      return { type: 'gtin8', value };
    case 12:
      return { type: 'upc', value };
    case 13:
      if (value.startsWith('9790')) return { type: 'ismn', value };
      return { type: /^97[89]/.test(value) ? 'isbn13' : 'ean13', value };
    case 14:
      return { type: 'gtin14', value };
    default:
      return undefined;
  }
}

function gs1CheckOk(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

function isbn10CheckOk(value: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (value[i] === 'X' ? 10 : Number(value[i])) * (10 - i);
  return sum % 11 === 0;
}

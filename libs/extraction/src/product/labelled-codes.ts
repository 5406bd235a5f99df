/**
 * Codes a page prints after a label ("SKU: 123", "Product code 83810610", "Art.-Nr. 4711",
 * "Item model number : A157", "EAN 4006381333931"), read from the page's text lines.
 */
export type CodeKind = 'sku' | 'mpn' | 'gtin' | 'brand';

const LABELS: Record<CodeKind, string[]> = {
  sku: [
    'sku', 'asin', 'item\\s*(?:number|no\\.?|#|code|id)', 'product\\s*(?:code|number|no\\.?|id|#)', 'article\\s*(?:number|no\\.?)', 'style\\s*(?:number|no\\.?|#)',
    'art(?:ikel)?\\.?\\s*-?\\s*(?:nr|nummer)\\.?', 'bestell\\s*-?\\s*(?:nr|nummer)\\.?', 'référence', 'réf\\.?', 'ref\\.?', 'code\\s*(?:article|produit)', 'n°\\s*article',
    'codice(?:\\s*(?:articolo|prodotto))?', 'cod\\.?\\s*(?:articolo|prodotto)', 'código(?:\\s*(?:del?\\s*)?(?:producto|artículo|produto))?', 'artikelnummer', 'artikelnr\\.?',
    'šifra', 'kod\\s*produktu', 'код(?:\\s*товара)?', 'артикул', '商品編號', '商品番号', '商品编号', '品番', 'קוד מוצר', 'מק"ט',
  ],
  mpn: ['mpn', '(?:item\\s*)?model\\s*(?:number|no\\.?|#)?', 'manufacturer\\s*part\\s*(?:number|no\\.?)', 'herstellernummer', 'hersteller-?\\s*artikelnummer', 'modell(?:nummer)?', 'modèle', 'référence\\s*fabricant', 'numero\\s*(?:di\\s*)?modello', 'modello', 'modelo'],
  gtin: ['gtin(?:-?\\d+)?', 'ean(?:-?13)?', 'upc', 'isbn(?:-?1[03])?', 'barcode', 'código\\s*de\\s*barras', 'strichcode'],
  brand: ['brand', 'marke', 'marque', 'marca', 'merk', 'марка', 'бренд', 'hersteller', 'manufacturer', 'fabricant', 'produttore', 'fabricante'],
};

// A code: starts with a letter or digit, holds a digit (brand names excepted), no spaces.
const CODE = '([A-Za-z0-9][A-Za-z0-9\\-/._]{0,39})';
const PATTERNS: Record<CodeKind, RegExp> = {
  sku: labelPattern(LABELS.sku, CODE),
  mpn: labelPattern(LABELS.mpn, CODE),
  gtin: labelPattern(LABELS.gtin, '(\\d[\\d\\s-]{6,18}[\\dX])'),
  brand: labelPattern(LABELS.brand, '([^:：|]{1,40})'),
};

function labelPattern(labels: string[], value: string): RegExp {
  return new RegExp(`(?:^|[\\s(〈\\[|,;])(?:${labels.join('|')})\\s*[:：#.]?\\s*${value}`, 'i');
}

/** The first code of the kind in the lines, or undefined. */
export function labelledCode(lines: readonly string[], kind: CodeKind): string | undefined {
  const pattern = PATTERNS[kind];
  for (const line of lines) {
    if (line.length > 200) continue;
    const match = pattern.exec(line);
    if (!match) continue;
    const value = match[1].trim().replace(/[.,;:]+$/, '');
    if (kind === 'brand' ? value.length >= 2 : /\d/.test(value)) return value;
  }
  return undefined;
}

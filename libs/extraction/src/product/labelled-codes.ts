/**
 * Codes a page prints after a label ("SKU: 123", "Product code 83810610", "Art.-Nr. 4711",
 * "Item model number : A157", "EAN 4006381333931"), read from the page's text lines.
 * Strong labels name a product's code wherever they stand in a line; weak ones ("Ref.",
 * "Codice", "Model") only at the start of a line, since prose uses those words too.
 */
export type CodeKind = 'sku' | 'mpn' | 'gtin' | 'brand';

interface Labels {
  strong: string[];
  weak?: string[];
}

const LABELS: Record<CodeKind, Labels> = {
  sku: {
    strong: [
      'sku', 'asin', 'item\\s*(?:number|no\\.?|#|code|id)', 'product\\s*(?:code|number|no\\.?|id|#)', 'article\\s*(?:number|no\\.?)', 'style\\s*(?:number|no\\.?|#)', 'cat(?:alog(?:ue)?)?\\.?\\s*(?:number|no\\.?|#)', 'order\\s*(?:number|no\\.?|code)', 'stock\\s*(?:code|number|no\\.?)', 'web\\s*id', 'internet\\s*#',
      'art(?:ikel)?\\.?\\s*-?\\s*(?:nr|nummer)\\.?', 'artikelnummer', 'bestell\\s*-?\\s*(?:nr|nummer)\\.?', 'code\\s*(?:article|produit)', 'n°\\s*(?:d.)?article',
      'cod(?:ice|\\.)?\\s*(?:articolo|prodotto)', 'código\\s*(?:del?\\s*)?(?:producto|artículo|produto)', 'id\\s*(?:produto|producto|prodotto|produit)',
      'kod\\s*produktu', 'код\\s*товара', 'артикул', '商品編號', '商品番号', '商品编号', '品番', 'קוד מוצר', 'מק"ט', '(?:상품|딜)\\s*번호', 'šifra',
      'numero\\s*(?:dell[\'’]\\s*)?(?:oggetto|articolo)', 'numéro\\s*(?:de\\s*l[\'’]\\s*)?(?:objet|article)', 'número\\s*(?:de(?:l)?\\s*)?(?:artículo|produto|producto)',
    ],
    weak: ['r[ée]f[ée]rence', 'réf\\.?', 'ref\\.?', 'codice', 'código', 'cod\\.', 'код'],
  },
  mpn: {
    strong: ['mpn', 'manufacturer\\s*part\\s*(?:number|no\\.?)', 'mf[rg]\\.?\\s*(?:part\\s*)?(?:number|no\\.?|#)', '(?:item\\s*)?model\\s*(?:number|no\\.?|#)', 'herstellernummer', 'hersteller-?\\s*artikelnummer', 'modellnummer', 'référence\\s*fabricant', 'numero\\s*(?:di\\s*)?modello'],
    weak: ['model', 'modell', 'modèle', 'modello', 'modelo'],
  },
  gtin: { strong: ['gtin(?:-?\\d+)?', 'ean(?:-?13)?', 'upc', 'isbn(?:-?1[03])?', 'barcode', 'código\\s*de\\s*barras', 'strichcode'] },
  brand: { strong: ['brand', 'marke', 'marque', 'marca', 'merk', 'марка', 'бренд'], weak: ['hersteller', 'manufacturer', 'fabricant', 'produttore', 'fabricante'] },
};

// A code: starts with a letter or digit, no spaces; it must hold a digit (checked below).
const CODE = '([A-Za-z0-9][A-Za-z0-9\\-/._]{0,39})';
// A brand is the rest of its line after a colon ("Brand: Acme"; "Brand Outlet" is a shop's section), short.
const VALUE: Record<CodeKind, string> = { sku: CODE, mpn: CODE, gtin: '(\\d[\\d\\s-]{6,18}[\\dX])', brand: '(?<=[:：]\\s*)([^:：|]{2,40})$' };
const SEPARATOR = '\\s*[:：#.\\-–]?\\s*';

interface LabelPatterns {
  /** Label and value on one line. */
  inline: RegExp;
  /** A line that is only the label (maybe with a qualifier: "Item number (shop):"): the value is the next line. */
  alone: RegExp;
}

function patterns(labels: string[], value: string, strong: boolean): LabelPatterns {
  // A label ends where a word ends: "Brands related…" and "Marketplace" hold no brand label.
  const label = `(?:${labels.join('|')})(?![A-Za-zÀ-ÿ])`;
  const anywhere = `(?:^|[\\s(〈\\[|,;])${label}`;
  const lineStart = `^[\\s(〈\\[•·-]*${label}`;
  // A weak label counts mid-line only when a colon follows it ("… Код: 01245").
  const inline = strong ? `${anywhere}${SEPARATOR}` : `(?:${lineStart}${SEPARATOR}|${anywhere}\\s*[:：]\\s*)`;
  return { inline: new RegExp(`${inline}${value}`, 'i'), alone: new RegExp(`${strong ? anywhere : lineStart}(?:\\s+\\S+)?${SEPARATOR}$`, 'i') };
}

const PATTERNS: Record<CodeKind, LabelPatterns[]> = Object.fromEntries(
  (Object.keys(LABELS) as CodeKind[]).map((kind) => {
    const { strong, weak } = LABELS[kind];
    const tiers = [patterns(strong, VALUE[kind], true)];
    if (weak) tiers.push(patterns(weak, VALUE[kind], false));
    return [kind, tiers];
  }),
) as Record<CodeKind, LabelPatterns[]>;

const VALUE_ALONE: Record<CodeKind, RegExp> = Object.fromEntries(
  (Object.keys(VALUE) as CodeKind[]).map((kind) => [kind, new RegExp(`^${VALUE[kind]}$`)]),
) as Record<CodeKind, RegExp>;

// A code holds a digit ("Model: Wi-Fi" is no code); a sku may also be words joined by - or _ ("woo-hoodie-logo").
const JOINED_WORDS = /^[A-Za-z]+(?:[-_][A-Za-z]+)+$/;

function isCodeOf(kind: CodeKind, value: string): boolean {
  return kind === 'brand' || /\d/.test(value) || (kind === 'sku' && JOINED_WORDS.test(value));
}

/** The first code of the kind in the lines (strong labels before weak ones), or undefined. */
export function labelledCode(lines: readonly string[], kind: CodeKind): string | undefined {
  for (const tier of PATTERNS[kind]) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.length > 200) continue;
      const inline = tier.inline.exec(line)?.[1];
      const below = tier.alone.test(line) ? VALUE_ALONE[kind].exec(lines[i + 1] ?? '')?.[1] : undefined;
      const code = [inline, below].map((value) => value?.trim().replace(/[.,;:]+$/, '')).find((value) => value && isCodeOf(kind, value));
      if (code) return code;
    }
  }
  return undefined;
}

import { Offer } from '../extraction.types';

export type Availability = NonNullable<Offer['availability']>;

/** schema.org ItemAvailability ("https://schema.org/InStock", "OutOfStock", "in_stock"…) or Open Graph's ("oos", "in stock") as InStock/OutOfStock. */
export function availabilityFromSchema(value: string | undefined): Availability | undefined {
  if (!value) return undefined;
  const term = value.toLowerCase().replace(/^.*[/#:]/, '').replace(/[\s_-]/g, '');
  // Open Graph's product:availability writes "oos", "instock", "available for order" (Facebook's catalog terms).
  if (/^(outofstock|oos|soldout|discontinued|outofstockonline|unavailable|false|0)$/.test(term)) return 'OutOfStock';
  if (/^(instock|limitedavailability|instoreonly|onlineonly|preorder|presale|backorder|available|availablefororder|true|1)$/.test(term)) return 'InStock';
  return undefined;
}

// Phrases of a stock notice, per language (en, de, fr, it, es, pt, nl, pl, ru, ja, zh, ko; then cs, sk, hu, ro, hr,
// sl, sr, uk, bg, el, fi, sv, da, no, he, ar, tr, vi, th, id); "out" first, as several contain an "in" phrase
// ("nicht verfügbar" ⊃ "verfügbar", "אינו במלאי" ⊃ "במלאי").
const OUT_OF_STOCK = new RegExp(
  [
    'out of stock', 'sold out', 'currently unavailable', 'unavailable', 'not available', 'no longer available', 'not in stock', 'temporarily out',
    'ausverkauft', 'nicht verfügbar', 'nicht lieferbar', 'nicht auf lager', 'nicht vorrätig', 'vergriffen', 'derzeit nicht',
    'rupture de stock', 'épuisé', 'epuise', 'indisponible', 'non disponible', "plus disponible", 'en rupture',
    'esaurit', 'non disponibile', 'non più disponibile', 'attualmente non',
    'agotado', 'sin stock', 'no disponible', 'sin existencias', 'esgotado', 'indisponível', 'sem estoque',
    'uitverkocht', 'niet op voorraad', 'niet leverbaar', 'brak w magazynie', 'niedostępny', 'нет в наличии', 'нет на складе', 'распродан',
    '在庫切れ', '品切れ', '売り切れ', '缺貨', '缺货', '售完', '無貨', '无货', '품절',
    'není skladem', 'vyprodáno', 'nie je na sklade', 'vypredané', 'nincs készleten', 'elfogyott', 'stoc epuizat', 'nu este în stoc', 'indisponibil',
    'nema na zalihi', 'nema na stanju', 'rasprodano', 'ni na zalogi', 'razprodano', 'немає в наявності', 'розпродано', 'изчерпан', 'няма наличност',
    'εξαντλήθηκε', 'μη διαθέσιμο', 'loppuunmyyty', 'ei varastossa', 'loppu varastosta', 'slutsåld', 'slut i lager', 'ej i lager', 'tillfälligt slut',
    'udsolgt', 'utsolgt', 'ikke på lager', 'אזל מהמלאי', 'אזל המלאי', 'אינו במלאי', 'לא במלאי', 'غير متوفر', 'نفدت الكمية', 'نفذت الكمية', 'نفد من المخزون',
    'stokta yok', 'tükendi', 'hết hàng', 'สินค้าหมด', 'หมดสต็อก', 'stok habis', 'tidak tersedia',
    // A back-in-stock alert stands where the cart button would be.
    'notif(?:y me|ied)[^.]{0,20} when', 'email me when', 'benachrichtigen', "m[’']avertir", 'avvisami', 'avísame',
  ].join('|'),
  'i',
);
const IN_STOCK = new RegExp(
  [
    'in stock', 'available', 'ships? (?:in|within|today)', 'dispatched', 'left in stock',
    'auf lager', 'lieferbar', 'verfügbar', 'vorrätig', 'en stock', 'disponible', 'disponibile', 'in magazzino',
    'en existencia', 'disponível', 'em estoque', 'op voorraad', 'leverbaar', 'dostępny', 'в наличии', 'есть на складе',
    '在庫あり', '有貨', '有货', '現貨', '现货', '재고 있음',
    'skladem', 'na sklade', 'készleten', 'în stoc', 'na zalihi', 'na stanju', 'na zalogi', 'в наявності', 'в наличност', 'διαθέσιμο', 'σε απόθεμα',
    'varastossa', 'i lager', 'på lager', 'במלאי', 'متوفر', 'stokta', 'còn hàng', 'มีสินค้า', 'tersedia',
  ].join('|'),
  'i',
);

/** A stock notice's meaning, e.g. "Only 3 left in stock", "Derzeit nicht verfügbar." */
export function availabilityFromText(text: string): Availability | undefined {
  if (!text || text.length > 200) return undefined;
  if (OUT_OF_STOCK.test(text)) return 'OutOfStock';
  if (IN_STOCK.test(text)) return 'InStock';
  return undefined;
}

const OUT_OF_STOCK_FIRST = new RegExp(`^(?:${OUT_OF_STOCK.source})`, 'i');

/**
 * Whether a line of text is an out-of-stock notice: one that starts with the phrase ("Out of
 * stock", "Currently unavailable.", "Sold Out - Notify me…"), not a line that uses it in
 * passing ("Chat is unavailable", "Produto esgotado :(" in a hidden dialog's template).
 */
export function isOutOfStockNotice(line: string): boolean {
  return OUT_OF_STOCK_FIRST.test(line);
}

/** Buttons that put the product in a cart: the page sells it now (in the languages of the stock phrases). */
export const ADD_TO_CART = new RegExp(
  [
    'add to (?:your |the )?(?:cart|basket|bag|trolley)', 'buy now', 'in den (?:warenkorb|einkaufswagen)', 'jetzt kaufen', 'ajouter au panier', 'acheter',
    'aggiungi al carrello', 'acquista', 'añadir al carrito', 'comprar', 'adicionar ao carrinho', 'in winkelwagen', 'do koszyka', 'в корзину', 'купить',
    'カートに入れる', '加入購物車', '加入购物车', '立即購買', '立即购买', '장바구니(?:에)? 담기', '바로 ?구매',
    'do košíku', 'do košíka', 'kosárba', 'adaugă în coș', 'adauga in cos', 'u košaricu', 'v košarico', 'у кошик', 'в кошик', 'в количката',
    'στο καλάθι', 'ostoskoriin', 'lägg i varukorgen', 'læg i kurv', 'legg i handlekurv', 'sepete ekle', 'הוסף? לסל', 'הוספה לסל', 'أضف إلى السلة', 'أضف للسلة',
    'thêm vào giỏ', 'ใส่ตะกร้า', 'ลงในตะกร้า', '(?:tambah|masukkan) ke(?:dalam)? keranjang',
  ].join('|'),
  'i',
);

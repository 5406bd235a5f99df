/**
 * The product's code as its address carries it, for pages whose markup and labels name none:
 * shops build a product's url from its id ("/product/227955/trail-pack", "/ip/blender/562225800",
 * "…-TR_1047-1609583.html", "?pid=260591", "?sku=SS24-SD-3.0"), and the shop's id is its sku.
 */

// Query parameters that name the product itself (a variant's or an offer's id is not the product's code).
const PRODUCT_PARAMETERS = ['sku', 'pid', 'prodid', 'productid', 'product_id', 'itemid', 'item_id'];
const PARAMETER_VALUE = /^[A-Za-z0-9][A-Za-z0-9\-_.]{0,39}$/;
// In the path: a number of five digits or more (shorter ones are years, sizes, counts), or an
// upper-case code of letters and digits ("B0D1PC8551", "M67296549"; slugs are lower case).
const PATH_CODE = /^(?:\d{5,20}|(?=[A-Z0-9]*\d[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,20})$/;
const FILE_EXTENSION = /\.(?:html?|php|aspx?|jsp)$/i;

/** The product code the url carries (a product parameter, else the last path segment, or a segment's last part, that is a code), or undefined. */
export function addressCode(url: string): string | undefined {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return undefined;
  }
  for (const [name, value] of address.searchParams) {
    if (PRODUCT_PARAMETERS.includes(name.toLowerCase()) && PARAMETER_VALUE.test(value) && /\d/.test(value)) return value;
  }
  const segments = address.pathname.split('/').filter(Boolean).reverse();
  for (const segment of segments) {
    const name = segment.replace(FILE_EXTENSION, '');
    // The whole segment, else its last part: a slug often ends with the id ("cama-eloisa-single-579695999").
    const code = [name, name.split(/[-_]/).pop() ?? ''].find((part) => PATH_CODE.test(part));
    if (code) return code;
  }
  return undefined;
}

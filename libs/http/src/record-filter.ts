/**
 * The `filter` read parameter (compat-notes §1.2): a JSON array `[field, op, values]`,
 * repeatable, all of them must hold. Comparisons take the first value; `=` and `in`
 * match any of the values.
 */
export class FilterError extends Error {}

type Predicate = (record: Record<string, unknown>) => boolean;

const OPS: Record<string, (field: unknown, values: unknown[]) => boolean> = {
  '=': (f, vs) => vs.some((v) => equal(f, v)),
  '==': (f, vs) => vs.some((v) => equal(f, v)),
  in: (f, vs) => vs.some((v) => equal(f, v)),
  '!=': (f, vs) => !vs.some((v) => equal(f, v)),
  '>': (f, [v]) => compare(f, v) > 0,
  '>=': (f, [v]) => compare(f, v) >= 0,
  '<': (f, [v]) => compare(f, v) < 0,
  '<=': (f, [v]) => compare(f, v) <= 0,
  contains: (f, vs) => typeof f === 'string' && vs.some((v) => typeof v === 'string' && f.includes(v)),
  haselement: (f, vs) => Array.isArray(f) && vs.some((v) => f.some((x) => equal(x, v))),
  hasnotelement: (f, vs) => !Array.isArray(f) || !vs.some((v) => f.some((x) => equal(x, v))),
  exists: (f) => f !== undefined,
};

function equal(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** NaN (no match) unless both are numbers or both strings. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return NaN;
}

export function parseFilters(params: string[]): Predicate | null {
  if (params.length === 0) return null;
  const predicates = params.map((param): Predicate => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(param);
    } catch {
      throw new FilterError(`Invalid filter ${JSON.stringify(param)}: not JSON (expected ["field", "op", [values]])`);
    }
    if (!Array.isArray(parsed) || parsed.length < 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
      throw new FilterError(`Invalid filter ${JSON.stringify(param)}: expected ["field", "op", [values]]`);
    }
    const [field, op, raw] = parsed as [string, string, unknown];
    const test = OPS[op];
    if (!test) throw new FilterError(`Invalid filter operator ${JSON.stringify(op)} (known: ${Object.keys(OPS).join(' ')})`);
    const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    return (record) => test(record[field], values);
  });
  return (record) => predicates.every((p) => p(record));
}

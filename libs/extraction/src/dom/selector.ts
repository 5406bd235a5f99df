/**
 * The CSS selectors the engine uses, compiled once: comma lists of compound selectors
 * (tag, #id, .class, [attr], [attr=v], [attr*=v], [attr^=v], [attr$=v], [attr~=v], with an
 * optional " i" flag) joined by descendant combinators. Enough for extraction heuristics,
 * not a full CSS engine: anything else throws, so a new selector fails loudly in tests.
 */
export interface SelectableElement {
  readonly localName: string;
  readonly parentElement: SelectableElement | null;
  getAttribute(name: string): string | null;
}

type Test = (element: SelectableElement) => boolean;
/** One compound per step, innermost (the element itself) first. */
type Complex = Test[];

const cache = new Map<string, CompiledSelector>();

export type CompiledSelector = (element: SelectableElement) => boolean;

/** The selector list as one test; compiled once per distinct text. Attribute names are lower case. */
export function compileSelector(selectors: string): CompiledSelector {
  let compiled = cache.get(selectors);
  if (!compiled) {
    const complexes = selectors.split(',').map((complex) => complex.trim().split(/\s+/).reverse().map(compileCompound));
    compiled = (element) => {
      for (const complex of complexes) if (matchesComplex(element, complex)) return true;
      return false;
    };
    cache.set(selectors, compiled);
  }
  return compiled;
}

function matchesComplex(element: SelectableElement, complex: Complex): boolean {
  if (!complex[0](element)) return false;
  let step = 1;
  for (let ancestor = element.parentElement; ancestor && step < complex.length; ancestor = ancestor.parentElement) {
    if (complex[step](ancestor)) step++;
  }
  return step === complex.length;
}

const PART = /^(?:([a-zA-Z][\w-]*|\*)|#([\w-]+)|\.([\w-]+)|\[\s*([\w:-]+)\s*(?:([*^$~]?=)\s*("[^"]*"|'[^']*'|[^\]\s]+)\s*(i)?\s*)?\])/;

function compileCompound(compound: string): Test {
  const tests: Test[] = [];
  let rest = compound;
  while (rest) {
    const part = PART.exec(rest);
    if (!part) throw new Error(`unsupported selector: ${compound}`);
    rest = rest.slice(part[0].length);
    const [, tag, id, className, attribute, operator, rawValue, insensitive] = part;
    if (tag && tag !== '*') {
      const name = tag.toLowerCase();
      tests.push((e) => e.localName === name);
    } else if (id) tests.push((e) => e.getAttribute('id') === id);
    else if (className) tests.push((e) => (e.getAttribute('class') ?? '').split(/\s+/).includes(className));
    else if (attribute) tests.push(attributeTest(attribute.toLowerCase(), operator, rawValue?.replace(/^["']|["']$/g, ''), insensitive === 'i'));
  }
  if (tests.length === 1) return tests[0];
  return (element) => {
    for (const test of tests) if (!test(element)) return false;
    return true;
  };
}

function attributeTest(name: string, operator: string | undefined, expected: string | undefined, insensitive: boolean): Test {
  if (!operator || expected === undefined) return (e) => e.getAttribute(name) !== null;
  const wanted = insensitive ? expected.toLowerCase() : expected;
  const compare: (value: string) => boolean =
    operator === '=' ? (v) => v === wanted
    : operator === '*=' ? (v) => v.includes(wanted)
    : operator === '^=' ? (v) => v.startsWith(wanted)
    : operator === '$=' ? (v) => v.endsWith(wanted)
    : (v) => v.split(/\s+/).includes(wanted);
  return (e) => {
    const value = e.getAttribute(name);
    return value !== null && compare(insensitive ? value.toLowerCase() : value);
  };
}

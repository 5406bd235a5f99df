import { DomElement } from '../dom';
import { decodeEntities } from '../dom/text';
import { StructuredRecord, StructuredValue } from './structured-data.types';
import { localName, typeNames } from './vocabulary';

/** Every JSON-LD object of the <script type="application/ld+json"> among the elements, @graph unrolled. */
export function readJsonLd(elements: readonly DomElement[]): StructuredRecord[] {
  const records: StructuredRecord[] = [];
  for (const script of elements) {
    if (script.localName !== 'script' || !/^\s*application\/ld\+json\s*$/i.test(script.getAttribute('type') ?? '')) continue;
    const parsed = parseTolerantly(script.textContent ?? '');
    for (const node of topLevelNodes(parsed)) records.push(toRecord(node));
  }
  return records;
}

/**
 * Pages ship JSON-LD with HTML comments or CDATA around it, JS comments, trailing commas,
 * raw newlines inside strings, several objects one after another, or junk after the end.
 */
function parseTolerantly(text: string): unknown {
  const cleaned = text
    .replace(/^\s*(<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '')
    .replace(/(-->|\/\/\s*\]\]>|\]\]>)\s*$/, '')
    .trim();
  if (!cleaned) return undefined;
  try {
    return JSON.parse(cleaned);
  } catch {
    const repaired = stripCommentsAndTrailingCommas(cleaned).replace(/[\n\r\t]+/g, ' ');
    try {
      return JSON.parse(repaired);
    } catch {
      return parseConcatenated(repaired);
    }
  }
}

/** Drops /* *\/ and // comments outside strings, and commas right before } or ]. */
function stripCommentsAndTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
    } else {
      out += c;
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** Reads one JSON value after another ("{…}{…}", "{…};"), keeping those that parse. */
function parseConcatenated(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && depth > 0 && --depth === 0) {
      try {
        values.push(JSON.parse(text.slice(start, i + 1)));
      } catch {
        // a broken value among good ones: the others still count
      }
    }
  }
  return values;
}

function topLevelNodes(parsed: unknown): Record<string, unknown>[] {
  if (Array.isArray(parsed)) return parsed.flatMap(topLevelNodes);
  if (!isObject(parsed)) return [];
  const graph = parsed['@graph'];
  if (graph !== undefined) return [...topLevelNodes(graph), ...(Object.keys(parsed).some(isOwnProperty) ? [parsed] : [])];
  return [parsed];
}

function isOwnProperty(key: string): boolean {
  return key !== '@context' && key !== '@graph';
}

function toRecord(node: Record<string, unknown>): StructuredRecord {
  const properties: Record<string, StructuredValue[]> = {};
  for (const [key, raw] of Object.entries(node)) {
    if (key === '@type' || key === '@context' || key === '@graph') continue;
    const values = toValues(raw);
    if (values.length) properties[key.startsWith('@') ? key : localName(key)] = values;
  }
  const types = (Array.isArray(node['@type']) ? node['@type'] : [node['@type']]).filter((t): t is string => typeof t === 'string').flatMap(typeNames);
  return { types, properties, source: 'json-ld' };
}

function toValues(raw: unknown): StructuredValue[] {
  if (Array.isArray(raw)) return raw.flatMap(toValues);
  if (typeof raw === 'string') return raw.trim() ? [decodeEntities(raw.trim())] : [];
  if (typeof raw === 'number' || typeof raw === 'boolean') return [String(raw)];
  if (!isObject(raw)) return [];
  if ('@value' in raw) return toValues(raw['@value']);
  return [toRecord(raw)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

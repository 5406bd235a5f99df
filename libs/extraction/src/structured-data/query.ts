import { StructuredData, StructuredRecord, StructuredValue } from './structured-data.types';

/** Every record of one of the types, nested ones included (depth first, document order). */
export function findRecords(data: StructuredData | StructuredRecord[], types: readonly string[]): StructuredRecord[] {
  const found: StructuredRecord[] = [];
  const visit = (record: StructuredRecord) => {
    if (record.types.some((t) => types.includes(t))) found.push(record);
    for (const values of Object.values(record.properties)) for (const value of values) if (typeof value !== 'string') visit(value);
  };
  (Array.isArray(data) ? data : data.records).forEach(visit);
  return found;
}

/** The first record of one of the types, preferring the order of `types` (e.g. NewsArticle before Article). */
export function firstRecord(data: StructuredData | StructuredRecord[], types: readonly string[]): StructuredRecord | undefined {
  const found = findRecords(data, types);
  for (const type of types) {
    const match = found.find((record) => record.types.includes(type));
    if (match) return match;
  }
  return undefined;
}

/** The values of a property, in order. */
export function propertyValues(record: StructuredRecord | undefined, name: string): StructuredValue[] {
  return record?.properties[name] ?? [];
}

/**
 * The property's first textual value: a string as is, a nested record by its name
 * (brand: {"@type": "Brand", "name": "X"}), else by its @id / url.
 */
export function propertyText(record: StructuredRecord | undefined, name: string): string | undefined {
  for (const value of propertyValues(record, name)) {
    const text = typeof value === 'string' ? value : recordLabel(value);
    if (text) return text;
  }
  return undefined;
}

/** Nested records of a property (offers, aggregateRating, itemListElement …). */
export function propertyRecords(record: StructuredRecord | undefined, name: string): StructuredRecord[] {
  return propertyValues(record, name).filter((value): value is StructuredRecord => typeof value !== 'string');
}

function recordLabel(record: StructuredRecord): string | undefined {
  for (const key of ['name', '@value', '@id', 'url']) {
    const value = record.properties[key]?.find((v): v is string => typeof v === 'string');
    if (value) return value;
  }
  return undefined;
}

/** The first value of a meta tag among the keys, in the keys' order. */
export function metaValue(data: StructuredData, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = data.meta[key]?.[0];
    if (value) return value;
  }
  return undefined;
}

/**
 * JSON as Python's `json.dumps` writes it (`", "` and `": "` separators, non-ASCII
 * escaped). The original JobQ service answered in this style; clients that compare
 * bodies byte for byte expect it.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${asciiString(k)}: ${pythonJson(v)}`)
      .join(', ')}}`;
  }
  if (typeof value === 'string') return asciiString(value);
  return JSON.stringify(value);
}

function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

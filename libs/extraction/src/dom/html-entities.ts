import { Parser } from 'htmlparser2';

/**
 * Entity decoding on demand, by htmlparser2's own decoder (the same tables and rules as a
 * parse that decodes): the light DOM tokenizes with decoding off — the tokenizer then skips
 * ahead to the next '<' or quote instead of inspecting every character — and decodes only
 * the few strings holding an '&': text as the tree is built, attribute values when read.
 * One reused parser per mode (a fresh one costs several times the decoding).
 */
let decodedText = '';
const textDecoder = new Parser({ ontext: (text) => (decodedText += text) }, { decodeEntities: true });
let decodedValue = '';
const attributeDecoder = new Parser({ onattribute: (_name, value) => (decodedValue = value) }, { decodeEntities: true });

export function decodeHtmlText(text: string): string {
  if (!text.includes('&')) return text;
  decodedText = '';
  textDecoder.reset();
  // A '<' in text is a literal one; escaped, it cannot start a tag when tokenized alone.
  textDecoder.end(text.replace(/</g, '&lt;'));
  return decodedText;
}

/** An attribute value as written between its quotes (attribute rules: "&copy=" stays as is). */
export function decodeHtmlAttribute(value: string): string {
  if (!value.includes('&')) return value;
  decodedValue = '';
  attributeDecoder.reset();
  attributeDecoder.end(`<i v="${value.replace(/"/g, '&quot;')}">`);
  return decodedValue;
}

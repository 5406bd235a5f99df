import { CONFIG_DOCS } from './config';

/** The marks around the README's settings table: what lies between them is written by `npm run docs:config`. */
export const CONFIG_TABLE_START = '<!-- config table: written by `npm run docs:config` from CONFIG_DOCS (libs/config/src/config.ts); edit it there -->';
export const CONFIG_TABLE_END = '<!-- end of config table -->';

/** CONFIG_DOCS as the README's Markdown table. */
export function configTable(): string {
  const rows = CONFIG_DOCS.map(([names, fallback, meaning]) => `| ${names.split(/\s+/).map((n) => `\`${n}\``).join(' ')} | ${fallback} | ${meaning} |`);
  return ['| name | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The README with its settings table (between the marks) written from CONFIG_DOCS. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the marks of the config table:\n${CONFIG_TABLE_START}\n...\n${CONFIG_TABLE_END}`);
  return `${readme.slice(0, start)}${CONFIG_TABLE_START}\n${configTable()}\n${readme.slice(end)}`;
}

/** Markdown of the table as plain text, for `--help`: links become their text, code marks go. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
}

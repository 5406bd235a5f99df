/**
 * `node dist/bench/extraction/date-misses.js [misses.tsv]`: every WCXB dev article whose
 * cross-validated datePublished is not the truth's, beside trafilatura's answer on the same
 * page and the engine's date candidates (day, sources, labels), to sort the misses by cause.
 * Prints the causes counted (no candidate holds the truth's day; it does but another was
 * chosen; nothing answered; an answer where the truth has none) and writes the list, pages
 * trafilatura gets right first.
 */
import { writeFileSync } from 'node:fs';
import { answer, crossValidatedArticleFields } from './article-fields';
import { normalisedField } from './field-score';
import { runTrafilatura } from './trafilatura';

type Cause = 'truth not a candidate' | 'another candidate chosen' | 'no answer, truth among candidates' | 'answer where truth has none';

async function main(): Promise<void> {
  const { pages, runs, answers, scored } = crossValidatedArticleFields();
  const peer = await runTrafilatura(scored.map((i) => pages[i]));
  if (!peer.ok) console.log(`  trafilatura left out: ${peer.why}`);
  const causes = new Map<Cause, number>();
  const rows: { peerRight: boolean; line: string }[] = [];
  for (const i of scored) {
    const page = pages[i];
    const [ours, truth] = [normalisedField('date', answer(answers[i], 'date')), normalisedField('date', page.truth.datePublished)];
    if (ours === truth) continue;
    const candidates = runs[i].articleEvidence.dateCandidates;
    const days = candidates.map((c) => c.iso.slice(0, 10));
    const cause: Cause = !truth ? 'answer where truth has none' : !days.includes(truth) ? 'truth not a candidate' : ours ? 'another candidate chosen' : 'no answer, truth among candidates';
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
    const theirs = peer.ok ? normalisedField('date', peer.answers.get(`${page.dataset}/${page.id}`)?.date) : '';
    const described = candidates.map((c) => {
      const sources = Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5));
      const labels = [c.features.updatedLabel ? 'updated' : '', c.features.publishedLabel ? 'published' : ''].filter(Boolean);
      return `${c.iso.slice(0, 10)}[${[...sources, ...labels].join(',')}]`;
    });
    rows.push({ peerRight: !!truth && theirs === truth, line: [page.id, page.url, cause, ours, truth, theirs, described.join(' ')].join('\t') });
  }
  for (const [cause, count] of [...causes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${cause}`);
  const peerRight = rows.filter((r) => r.peerRight).length;
  console.log(`  ${rows.length} misses of ${scored.length} pages; trafilatura right on ${peerRight} of them`);
  const lines = ['id\turl\tcause\tours\ttruth\ttrafilatura\tcandidates', ...[...rows].sort((a, b) => Number(b.peerRight) - Number(a.peerRight)).map((r) => r.line)];
  writeFileSync(process.argv[2] ?? 'date-misses.tsv', `${lines.join('\n')}\n`);
}

void main();

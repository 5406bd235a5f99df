/**
 * `node dist/bench/extraction/author-misses.js [misses.tsv]`: every WCXB dev article whose
 * cross-validated author is not the truth's, with the engine's author candidates (text and
 * sources), to sort the misses by cause: no candidate holds the truth; one does but another
 * was chosen or none answered; an answer where the truth names nobody.
 */
import { writeFileSync } from 'node:fs';
import { answer, crossValidatedArticleFields } from './article-fields';
import { normalisedField } from './field-score';

type Cause = 'truth not a candidate' | 'another candidate chosen' | 'no answer, truth among candidates' | 'answer where truth has none';

function main(): void {
  const { pages, runs, answers, scored } = crossValidatedArticleFields();
  const causes = new Map<Cause, number>();
  const lines = ['id\turl\tcause\tours\ttruth\tcandidates'];
  for (const i of scored) {
    const page = pages[i];
    const [ours, truth] = [normalisedField('author', answer(answers[i], 'author')), normalisedField('author', page.truth.author)];
    if (ours === truth) continue;
    const candidates = runs[i].articleEvidence.authorCandidates;
    const values = candidates.map((c) => normalisedField('author', c.text));
    const cause: Cause = !truth ? 'answer where truth has none' : !values.includes(truth) ? 'truth not a candidate' : ours ? 'another candidate chosen' : 'no answer, truth among candidates';
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
    const described = candidates.map((c) => `${c.text}[${Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5)).join(',')}]`);
    lines.push([page.id, page.url, cause, ours, truth, described.join(' ; ')].join('\t'));
  }
  for (const [cause, count] of [...causes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${cause}`);
  writeFileSync(process.argv[2] ?? 'author-misses.tsv', `${lines.join('\n')}\n`);
}

main();

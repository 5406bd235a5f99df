import { FOLDS, crossValidate, loadCorpus } from './extraction/cross-validation';
import { formatRows, qualityRows, SystemAnswers } from './extraction/quality-figures';
import { runTrafilatura } from './extraction/trafilatura';

/**
 * `npm run bench:extraction-quality` (and the start of `npm run bench extraction`): the
 * engine's quality on the three development sets (article, product, WCXB) by site-grouped
 * cross-validation first (the fitted models trained on other sites than the page's: what a
 * site never seen gets), in-sample second (the shipped weights, fitted on every page), with
 * trafilatura on the same pages beside them (skipped, with the reason, when it cannot be
 * installed). EXTRACTION_PEER=0 leaves trafilatura out.
 */
export async function extractionQualityBench(): Promise<void> {
  const pages = loadCorpus();
  const sites = new Set(pages.map((p) => p.site)).size;
  console.log(`extraction quality: ${pages.length} pages of 3 development sets, ${sites} sites in ${FOLDS} site-grouped folds`);

  // The peer first, so its process does not share the CPU with our timed passes.
  const peer = process.env.EXTRACTION_PEER === '0' ? ({ ok: false, why: 'EXTRACTION_PEER=0' } as const) : await runTrafilatura(pages);
  if (!peer.ok) console.log(`  trafilatura: skipped (${peer.why})`);

  const cv = crossValidate(pages);
  const systems: SystemAnswers[] = [
    { kind: 'ours', runs: cv.crossValidated },
    { kind: 'ours', runs: cv.inSample },
    ...(peer.ok ? [{ kind: 'peer' as const, answers: pages.map((p) => peer.answers.get(`${p.dataset}/${p.id}`)) }] : []),
  ];
  const header = ['cross-validated', 'in-sample', ...(peer.ok ? [`trafilatura ${peer.version}`] : [])];
  for (const line of formatRows(header, qualityRows(pages, systems))) console.log(line);

  const ourSeconds = cv.inSample.reduce((sum, run) => sum + run.articleSeconds, 0);
  const ours = pages.length / ourSeconds;
  const speed = [`crawlhub ${ours.toFixed(0)} pages/s`];
  if (peer.ok) speed.push(`trafilatura ${(pages.length / peer.seconds).toFixed(1)} pages/s (crawlhub ${(ours / (pages.length / peer.seconds)).toFixed(1)}x)`);
  console.log(`  article extraction speed on these pages (parsing included, one thread, same run): ${speed.join('; ')}`);
}

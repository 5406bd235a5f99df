import { parseLightPage } from '../../dom';
import { SHIPPED_MODELS } from '../../model/models';
import { BodyChoiceModel } from '../../model/extraction-models';
import { extractArticle, extractArticleWithEvidence } from '../extract-article';
import { bodyCandidates, chooseBody } from './body-candidates';
import { findArticleBody } from './extract-body';
import { bestCandidate, climbToContainer, contentBlocks, scoreCandidates } from './main-content';
import { collectTextStats } from './text-stats';

const sentence = (topic: string) => `${topic} changed the town, officials said on Monday, and residents, shop owners and commuters all felt it during the long week of repairs.`;
const paragraphs = (topic: string, count: number) => Array.from({ length: count }, (_, i) => `<p>${sentence(`${topic} ${i}`)}</p>`).join('');

// The story's lead sits in a wrapper beside the longer part the rules choose; a link list under the page's main.
const PAGE = `<html><head><title>Floods</title></head><body><main>
  <h1>Floods in the valley</h1>
  <div class="intro">${paragraphs('The lead', 2)}</div>
  <div class="wrap"><div class="story">${paragraphs('The river', 6)}</div></div>
  <ul class="more">${Array.from({ length: 8 }, (_, i) => `<li><a href="/s/${i}">Another story number ${i} about something else</a></li>`).join('')}</ul>
</main></body></html>`;

function candidatesOf(html: string) {
  const document = parseLightPage(html);
  const root = document.body!;
  const stats = collectTextStats(root);
  const scores = scoreCandidates(root, stats);
  const rule = contentBlocks(climbToContainer(bestCandidate(scores)!, scores), scores, stats);
  return { rule, candidates: bodyCandidates(root, rule, scores, stats) };
}

/** A model that rates one feature only: weight +1 on it, nothing else. */
function preferring(feature: string, margin: number): BodyChoiceModel {
  return { model: { features: [feature], mean: [0], scale: [1], weights: [10], bias: 0 }, margin };
}

describe('body candidates (issue 19)', () => {
  it('puts the rules\' choice first, then wider and other containers, each once', () => {
    const { rule, candidates } = candidatesOf(PAGE);
    expect(candidates[0].blocks).toBe(rule);
    expect(candidates[0].features).toMatchObject({ rule: 1, holdsRule: 1, insideRule: 1, charsVsRule: 0, addedShare: 0 });
    const main = candidates.find((c) => c.blocks.length === 1 && c.blocks[0].localName === 'main');
    expect(main).toBeDefined();
    const keys = candidates.map((c) => c.blocks);
    expect(new Set(keys.map((blocks) => blocks.map((b) => b.localName + b.getAttribute('class')).join()))).toHaveProperty('size', keys.length);
  });

  it('measures what a wider candidate adds: the lead\'s prose and the link list, its h1 and its place on the page', () => {
    const { candidates } = candidatesOf(PAGE);
    const main = candidates.find((c) => c.blocks[0].localName === 'main')!.features;
    expect(main).toMatchObject({ rule: 0, holdsRule: 1, insideRule: 0, tagMain: 1, h1Inside: 1, h1Missing: 0 });
    expect(main.charsVsRule).toBeGreaterThan(0);
    expect(main.addedShare).toBeGreaterThan(0.3);
    // the added text is the lead (no links) and the list (all links)
    expect(main.addedLinkDensity).toBeGreaterThan(0.2);
    expect(main.addedLinkDensity).toBeLessThan(0.8);
    expect(main.addedListItemShare).toBeGreaterThan(0.5);
    expect(main.pageShare).toBeCloseTo(1, 1);
    for (const candidate of candidates) for (const value of Object.values(candidate.features)) expect(Number.isFinite(value)).toBe(true);
  });

  it('keeps the rules\' choice unless another candidate beats it by the margin', () => {
    const { candidates } = candidatesOf(PAGE);
    expect(chooseBody(candidates, preferring('tagMain', 0)).blocks[0].localName).toBe('main');
    // tagMain lifts the probability from 0.5 to ~1: a margin of 0.5 or more is never passed
    expect(chooseBody(candidates, preferring('tagMain', 0.5))).toBe(candidates[0]);
  });

  it('applies a body model at extraction: the lead comes in with the wider container', () => {
    const rules = extractArticle(PAGE, 'https://news.example/floods', {}, { ...SHIPPED_MODELS, body: undefined });
    const wider = extractArticle(PAGE, 'https://news.example/floods', {}, { ...SHIPPED_MODELS, body: preferring('tagMain', 0) });
    expect(rules.articleBody).not.toContain('The lead 0');
    expect(wider.articleBody).toContain('The lead 0');
    expect(wider.articleBody).toContain('The river 5');
  });

  it('gives every candidate\'s text to the training run, the chosen body\'s unchanged', () => {
    const { article, evidence } = extractArticleWithEvidence(PAGE, 'https://news.example/floods', {}, SHIPPED_MODELS, true);
    expect(article).toEqual(extractArticle(PAGE, 'https://news.example/floods', {}, SHIPPED_MODELS));
    expect(evidence.bodyCandidates!.length).toBeGreaterThan(1);
    expect(evidence.bodyCandidates!.some((c) => c.text.includes('The lead 0'))).toBe(true);
    expect(extractArticleWithEvidence(PAGE, 'https://news.example/floods').evidence.bodyCandidates).toBeUndefined();
  });

  it('without a body model finds exactly the rules\' blocks', () => {
    const document = parseLightPage(PAGE);
    expect(findArticleBody(document)!.blocks.map((b) => b.getAttribute('class'))).toEqual(['story']);
  });
});

describe('the shipped body model', () => {
  it('loads with a weight for every feature the candidates give, and a margin', () => {
    const body = SHIPPED_MODELS.body!;
    expect(body).toBeDefined();
    const { candidates } = candidatesOf(PAGE);
    expect([...body.model.features].sort()).toEqual(Object.keys(candidates[0].features).sort());
    for (const list of [body.model.weights, body.model.mean, body.model.scale]) {
      expect(list).toHaveLength(body.model.features.length);
      for (const value of list) expect(Number.isFinite(value)).toBe(true);
    }
    expect(body.margin).toBeGreaterThanOrEqual(0);
    expect(body.margin).toBeLessThanOrEqual(1);
  });
});

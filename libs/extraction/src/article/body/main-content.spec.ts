import { parseLightPage, textOf } from '../../dom';
import { withSiblingSections } from './main-content';
import { collectTextStats } from './text-stats';

const PROSE = (topic: string) =>
  `${topic} grew steadily through the year, according to people who follow it closely, and the figures published on Monday confirm the trend, which analysts had expected since spring.`;

// Modelled on security.org's camera ranking: the ranked entries in one section, then the methodology and the FAQ in
// sections of other names ("wysiwyg", "faq-container") under <h2>s like the entries' own; the choice keeps the entries'
// section only. Its similar-reviews section is built the same way.
const section = (kind: string, inner: string) => `<section class="section ${kind} flex-wrapper"><div class="flex-grid">${inner}</div></section>`;
const ranking = (brands: string[]) =>
  section('product-fieldset-wrapper', `<h2>Breaking down the best cameras</h2>${brands.map((t) => `<h3>${t}</h3><p>${PROSE(t)}</p><p>${PROSE(`${t} again`)}</p>`).join('')}`);
const entries = ranking(['Cams', 'Rings', 'Nests', 'Arlos']);
// long enough that the intro holds under a tenth of its prose, as on security.org (900 characters before 19,000)
const longEntries = ranking(['Cams', 'Rings', 'Nests', 'Arlos', 'Wyzes', 'Eufys', 'Blinks', 'Lorexes', 'Swanns', 'Reolinks', 'Kasas', 'Tapos']);
const methodology = section('wysiwyg is-anchor', `<h2>Methodology</h2><p>${PROSE('Testing')}</p><p>${PROSE('Scoring')}</p>`);
const faq = section(
  'faq-container is-anchor',
  `<h2>FAQs about cameras</h2><ul class="accordion">${['wired', 'wireless']
    .map((t) => `<li class="accordion-item"><a class="accordion-title" href="#${t}">Which ${t} camera is best?</a><div class="accordion-content"><p>${PROSE(t)}</p></div></li>`)
    .join('')}</ul>`,
);
const similar = section('wysiwyg is-anchor', `<h2>More camera reviews</h2><p>${PROSE('The doorbell review')}</p><p>${PROSE('The floodlight review')}</p>`);
const note = section('wysiwyg', `<p>${PROSE('Our editors')}</p>`);
const intro = section('wysiwyg', `<p>${PROSE('Choosing a camera')}</p><p>${PROSE('Our testing')}</p>`);

function joinedTexts(html: string): string[] {
  const root = parseLightPage(`<html><body><main><h1>The best security cameras</h1><div class="content-column">${html}</div></main></body></html>`).querySelector('main')!;
  const chosen = root.querySelector('.product-fieldset-wrapper .flex-grid')!;
  return withSiblingSections([chosen], collectTextStats(root)).map(textOf);
}

describe('withSiblingSections', () => {
  it('joins the sections after the chosen one that go on with its headings, whatever their names', () => {
    const texts = joinedTexts(`${entries}${methodology}${faq}`);
    expect(texts).toHaveLength(3);
    expect(texts[1]).toContain(PROSE('Testing'));
    expect(texts[2]).toContain('Which wireless camera is best?');
  });

  it('joins the intro before the chosen section, which opens with a heading: a section of prose under no heading', () => {
    const texts = joinedTexts(`${intro}${longEntries}`);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain(PROSE('Choosing a camera'));
    expect(texts[1]).toContain('Breaking down the best cameras');
  });

  it('leaves a short section of prose before the chosen one out when the chosen one opens with its own intro', () => {
    const withIntro = longEntries.replace('<h2>', `<p>${PROSE('Our picks')}</p><h2>`);
    expect(joinedTexts(`${intro}${withIntro}`)).toHaveLength(1);
  });

  it('leaves out a section of other pages, and a short one without a heading, built the same way', () => {
    const texts = joinedTexts(`${entries}${similar}${note}`);
    expect(texts).toHaveLength(1);
  });
});

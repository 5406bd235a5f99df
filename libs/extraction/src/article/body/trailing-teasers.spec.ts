import { extractArticle } from '../extract-article';

const sentence = (topic: string) => `${topic} drew a crowd to the harbour on Friday, organisers said, and families, vendors and visitors stayed until the last boat came in at dusk.`;
const paragraphs = (topic: string, count: number) => Array.from({ length: count }, (_, i) => `<p>${sentence(`${topic} ${i}`)}</p>`).join('');

// A news site built of slots (modelled on a page of searchlight.vc): the story's slot, then a slot of teasers for other stories.
const teaser = (i: number) => `<article class="article article_${i}">
  <div class="categories">Front Page</div>
  <div class="title"><a href="/front-page/2025/12/19/story-${i}/">Other story number ${i} in the news</a></div>
  <div class="date">December 19, 2025</div>
  <div class="body">TEASER ${i} excerpt: the council met on Tuesday to discuss the roads, and members said repairs would begin before the rainy...</div>
</article>`;
const teaserSlot = `<section class="posts_slot"><div class="template-content">${[0, 1, 2, 3].map(teaser).join('')}</div></section>`;
const slotPage = (story: string) => `<html><head><title>Festival</title></head><body><div class="content container"><div class="central-column">
  <section class="posts_slot"><div class="template-content"><article class="article Single-Post"><h1>Festival returns</h1>
    <div class="body content-single-wrap">${story}</div></article></div></section>
  ${teaserSlot}
</div></div></body></html>`;

describe('removeTrailingTeasers', () => {
  it('drops a grid of teaser cards that follows a long article', () => {
    const body = extractArticle(slotPage(paragraphs('The festival', 9)), 'https://example.com/news/2025/12/19/festival').articleBody ?? '';
    expect(body).toContain('The festival 8 drew a crowd');
    expect(body).not.toContain('TEASER');
  });

  it('keeps the teasers after a short intro, where they are the page (a listing)', () => {
    const body = extractArticle(slotPage(paragraphs('The week', 2)), 'https://example.com/news/').articleBody ?? '';
    expect(body).toContain('TEASER 3');
  });

  it('keeps cards whose link opens a sentence, a list of steps rather than teasers', () => {
    const step = (i: number) => `<article class="article article_${i}"><div class="body"><a href="/tools/${i}/">Use the planning tool ${i}.</a> STEP ${i}: the agency offers it free, and it helps a small shop build its plan.</div></article>`;
    const steps = `<section class="posts_slot"><div class="template-content">${[0, 1, 2, 3].map(step).join('')}</div></section>`;
    const body = extractArticle(slotPage(paragraphs('The festival', 9)).replace(teaserSlot, steps), 'https://example.com/news/2025/12/19/festival').articleBody ?? '';
    expect(body).toContain('STEP 3');
  });
});

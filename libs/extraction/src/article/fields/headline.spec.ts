import { parseLightPage } from '../../dom';
import { firstRecord, readStructuredData } from '../../structured-data';
import { headlineCandidates } from './headline';

/** Each headline candidate with its sources and how many of its words the page's titles share. */
function candidatesOf(html: string) {
  const document = parseLightPage(html);
  const data = readStructuredData(document, 'https://blog.example/a-post');
  return Object.fromEntries(
    headlineCandidates(firstRecord(data, ['Article']), data, document, 'https://blog.example/a-post').map((c) => [
      c.text,
      { sources: Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5)), h1TitleOverlap: c.features.h1TitleOverlap },
    ]),
  );
}

describe('headlineCandidates', () => {
  it("offers the later <h1>s as candidates when the first is the site's logo", () => {
    const html = `<html><head><title>Foundational Fitness Protocol | Huberman Lab</title><meta property="og:title" content="Foundational Fitness Protocol"></head>
      <body><h1><a href="/">Huberman Lab</a></h1><main><h1>Foundational Fitness Protocol</h1><p>Text.</p></main></body></html>`;
    const found = candidatesOf(html);
    expect(found['Huberman Lab']).toEqual({ sources: ['h1'], h1TitleOverlap: 1 });
    expect(found['Foundational Fitness Protocol']).toEqual({ sources: ['ogTitle', 'laterH1', 'ogTitleCut', 'titleCut'], h1TitleOverlap: 1 });
  });

  it('gives an <h1> that is not the titles a low share (a section name above a differently titled page)', () => {
    const html = `<html><head><title>Yosemite National Park (U.S. National Park Service)</title></head><body><h1>Webcams</h1><p>Text.</p></body></html>`;
    expect(candidatesOf(html)['Webcams']).toEqual({ sources: ['h1'], h1TitleOverlap: 0 });
  });
});

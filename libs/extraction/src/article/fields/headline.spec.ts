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
      {
        sources: Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5)),
        h1TitleOverlap: c.features.h1TitleOverlap,
        linksHome: c.features.linksHome,
        titleClass: c.features.titleClass,
        slugShare: c.features.slugShare,
        bar: c.features.bar,
      },
    ]),
  );
}

describe('headlineCandidates', () => {
  it("offers the later <h1>s as candidates when the first is the site's logo", () => {
    const html = `<html><head><title>Foundational Fitness Protocol | Huberman Lab</title><meta property="og:title" content="Foundational Fitness Protocol"></head>
      <body><h1><a href="/">Huberman Lab</a></h1><main><h1>Foundational Fitness Protocol</h1><p>Text.</p></main></body></html>`;
    const found = candidatesOf(html);
    expect(found['Huberman Lab']).toMatchObject({ sources: ['h1'], h1TitleOverlap: 1, linksHome: 1 });
    expect(found['Foundational Fitness Protocol']).toMatchObject({ sources: ['ogTitle', 'laterH1', 'ogTitleCut', 'titleCut'], h1TitleOverlap: 1, linksHome: 0 });
  });

  it('gives an <h1> that is not the titles a low share (a section name above a differently titled page)', () => {
    const html = `<html><head><title>Yosemite National Park (U.S. National Park Service)</title></head><body><h1>Webcams</h1><p>Text.</p></body></html>`;
    expect(candidatesOf(html)['Webcams']).toMatchObject({ sources: ['h1'], h1TitleOverlap: 0 });
  });

  it("cuts the site's name from the title's start when the home link or the host names it", () => {
    const byHomeLink = `<html><head><title>Engora Data Blog: Small adventures with small models</title></head>
      <body><h1 class="title"><a href="https://blog.example/">Engora Data Blog</a></h1><h3>Small adventures with small models</h3></body></html>`;
    expect(candidatesOf(byHomeLink)['Small adventures with small models']).toMatchObject({ sources: ['titleCut'] });
    const byHost = `<html><head><title>blog.example Vibe Coding</title></head><body><p>Text.</p></body></html>`;
    expect(candidatesOf(byHost)['Vibe Coding']).toMatchObject({ sources: ['titleCut'] });
    // A title that is only the site's name is not cut to nothing.
    expect(Object.keys(candidatesOf(`<html><head><title>blog.example</title></head><body></body></html>`))).toEqual(['blog.example']);
  });

  it('cuts a " • Site" or " » Site" tail', () => {
    const html = `<html><head><title>A brief intro to git • Cory D</title><meta property="og:title" content="Marathon in a year » Magic Step"></head><body></body></html>`;
    const found = candidatesOf(html);
    expect(found['A brief intro to git']).toMatchObject({ sources: ['titleCut'] });
    expect(found['Marathon in a year']).toMatchObject({ sources: ['ogTitleCut'] });
  });

  it('reads a heading with its line breaks as spaces, its inline markup as written, without its <time>, and notes a title class', () => {
    const html = `<html><head><title>Other</title></head><body>
      <h1 class="entry-title">Top MBA Programs (US)<br>Your Guide to C<span>ycles</span></h1>
      <h1><time datetime="2025-12-18">Dec 18 2025</time> Preparing a transition</h1></body></html>`;
    const found = candidatesOf(html);
    expect(found['Top MBA Programs (US) Your Guide to Cycles']).toMatchObject({ sources: ['h1'], titleClass: 1 });
    expect(found['Preparing a transition']).toMatchObject({ sources: ['laterH1'], titleClass: 0 });
  });

  it("cuts a site's name repeated at the end of a title, and offers the <h1> without the site's name at its end, not its start", () => {
    const html = `<html><head><title>Critics’ Choice 2025 – Artlyst - Artlyst</title><meta property="og:site_name" content="Artlyst"></head>
      <body><h1>Critics’ Choice 2025 – Artlyst</h1><h1>Artlyst Picks of the Week</h1></body></html>`;
    const found = candidatesOf(html);
    expect(found['Critics’ Choice 2025']).toMatchObject({ sources: ['h1Cut', 'titleCut', 'firstPart'] });
    expect(found['Critics’ Choice 2025 – Artlyst']).toMatchObject({ sources: ['h1'] });
    expect(found['Artlyst Picks of the Week']).toMatchObject({ sources: ['laterH1'] });
    expect(found['Picks of the Week']).toBeUndefined();
  });

  it('cuts no tail but a known site name from the <h1> (" – My Favorites!" is often part of the headline)', () => {
    const html = `<html><head><title>Best Bread Machines – My Favorites! | blog.example</title></head><body><h1>Best Bread Machines – My Favorites!</h1></body></html>`;
    expect(candidatesOf(html)['Best Bread Machines – My Favorites!']).toMatchObject({ sources: ['h1', 'titleCut'] });
  });

  it("gives each candidate the share of the address's slug words it holds (a post's slug is made from its first headline)", () => {
    const html = `<html><head><title>Toddler Sleep Training | blog.example</title></head><body><h1>How To Get Toddlers To Sleep In Their Own Bed</h1></body></html>`;
    const document = parseLightPage(html);
    const data = readStructuredData(document, 'https://blog.example/2025/how-to-get-toddlers-to-sleep-in-their-own-bed/');
    const found = Object.fromEntries(headlineCandidates(undefined, data, document, 'https://blog.example/2025/how-to-get-toddlers-to-sleep-in-their-own-bed/').map((c) => [c.text, c.features.slugShare]));
    // "how", "get", "toddlers", "sleep", "their", "own", "bed" (words of three letters or more; the year is not a word).
    expect(found['How To Get Toddlers To Sleep In Their Own Bed']).toBe(1);
    expect(found['Toddler Sleep Training']).toBeCloseTo(1 / 7);
    expect(candidatesOf(html)['Toddler Sleep Training'].slugShare).toBe(0);
  });

  it('notes a " | " in a candidate (a site\'s or a section\'s separator), not a dash (it also joins a headline\'s own parts)', () => {
    const html = `<html><head><title>How to help babies sleep through the night | Patient Education | Children's Hospital</title></head>
      <body><h1>The Programming Language Death Spiral - How Small Languages Die</h1></body></html>`;
    const found = candidatesOf(html);
    expect(found["How to help babies sleep through the night | Patient Education | Children's Hospital"]).toMatchObject({ sources: ['title'], bar: 1 });
    expect(found['How to help babies sleep through the night']).toMatchObject({ sources: ['firstPart'], bar: 0 });
    expect(found['The Programming Language Death Spiral - How Small Languages Die']).toMatchObject({ sources: ['h1'], bar: 0 });
  });

  it('offers the part of the <h1> and of the titles before their first separator (a subtitle or a section follows it there)', () => {
    const html = `<html><head><title>Best Residential Movers in NYC 2025 | Top 19 Companies | Supermove</title><meta property="og:site_name" content="Supermove"></head>
      <body><h1>Best Residential Movers in NYC 2025 | Top 19 Companies</h1><p>Text.</p></body></html>`;
    const found = candidatesOf(html);
    expect(found['Best Residential Movers in NYC 2025']).toMatchObject({ sources: ['firstPart'] });
    expect(found['Best Residential Movers in NYC 2025 | Top 19 Companies']).toMatchObject({ sources: ['h1', 'titleCut'] });
    // A single word before the separator is too little to be a headline.
    expect(Object.keys(candidatesOf(`<html><head><title>Park webcams</title></head><body><h1>Webcams - Yosemite</h1></body></html>`))).not.toContain('Webcams');
  });
});

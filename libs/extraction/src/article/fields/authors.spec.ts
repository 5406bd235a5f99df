import { parseLightPage } from '../../dom';
import { firstRecord, readStructuredData } from '../../structured-data';
import { leanHtml } from '../lean-html';
import { authorCandidates, splitNames } from './authors';

describe('splitNames', () => {
  it('splits a byline on commas, ampersands, "and" in several languages and "with", without "By"', () => {
    expect(splitNames('By Jane Doe and John Roe, Reuters')).toEqual(['Jane Doe', 'John Roe', 'Reuters']);
    expect(splitNames('Ana Silva e João Souza')).toEqual(['Ana Silva', 'João Souza']);
    expect(splitNames('Tom & Jerry')).toEqual(['Tom', 'Jerry']);
    expect(splitNames('By Dieter Hogen with Uta Pippig')).toEqual(['Dieter Hogen', 'Uta Pippig']);
  });

  it('keeps middle initials inside a name', () => {
    expect(splitNames('Sarah E. Needleman')).toEqual(['Sarah E. Needleman']);
    expect(splitNames('By Juan Y Pérez')).toEqual(['Juan Y Pérez']);
  });

  it('leaves out a date or reading time the byline runs into', () => {
    expect(splitNames('Luke KimDecember 17, 2025')).toEqual(['Luke Kim']);
    expect(splitNames('Dec 17, 2025Julian K. Arni')).toEqual(['Julian K. Arni']);
    expect(splitNames('Andrew Gerrand 4 August 2010')).toEqual(['Andrew Gerrand']);
    expect(splitNames('Dec. 19, 2025 · Niko Matsakis')).toEqual(['Niko Matsakis']);
    expect(splitNames('August 28, 2025•5 min read')).toEqual([]);
  });

  it('reads the name after any "… by" label, and no name from a label alone, a form field or a placeholder account', () => {
    expect(splitNames('Text by Hunter Dukes')).toEqual(['Hunter Dukes']);
    for (const label of ['Written By', 'Posted by:', 'Article by:', 'The Author', 'Name *', 'admin', 'undefined', 'page.head.extra.author']) expect(splitNames(label)).toEqual([]);
  });

  it('reads no name from a label left after the date it follows ("Jun 2 Written By") nor from a link\'s call to action', () => {
    expect(splitNames('Jun 2 Written By')).toEqual([]);
    for (const action of ['Learn More', 'Read more', 'View profile', 'See full bio']) expect(splitNames(action)).toEqual([]);
  });

  it('reads a serial comma before the last name ("A, B, and C") as a list, and leaves out the update line and the job the byline runs into', () => {
    expect(splitNames('Danielle DeSiato, Donna Enzmann, and Natalie Nguyen Updated August 14, 2025')).toEqual(['Danielle DeSiato', 'Donna Enzmann', 'Natalie Nguyen']);
    expect(splitNames('Thomas Broderick, Nalea Ko, and ACO Rankings TeamUpdated on, Edited by Lauren Mastbaum')).toEqual(['Thomas Broderick', 'Nalea Ko', 'ACO Rankings Team']);
    expect(splitNames('Yucy3/4/2025')).toEqual(['Yucy']);
    expect(splitNames('IndustrySelect on Tuesday')).toEqual(['IndustrySelect']);
    expect(splitNames('ServiceTitanNovember 26th, 202410 Min Read')).toEqual(['ServiceTitan']);
    expect(splitNames('Shannon Williams, Journalist')).toEqual(['Shannon Williams']);
    expect(splitNames('Rachel MacDonaldWriter')).toEqual(['Rachel MacDonald']);
    expect(splitNames('Harry RabinowitzTech Reporter')).toEqual(['Harry Rabinowitz']);
    expect(splitNames('Jane Writer')).toEqual(['Jane Writer']);
    expect(splitNames('Jane Doe, Senior Editor')).toEqual(['Jane Doe']);
    expect(splitNames('ops@our-hometown.com')).toEqual([]);
  });

  it('reads "Authors:", "Contributors:" and "Authored by" labels before names, not a bare "Authors" that starts a name', () => {
    expect(splitNames('Authors: Julie Weisenhorn and Natalie Hoidal')).toEqual(['Julie Weisenhorn', 'Natalie Hoidal']);
    expect(splitNames('Contributors: Janet Loughrey')).toEqual(['Janet Loughrey']);
    expect(splitNames('Authored by: Ehsan Jazini')).toEqual(['Ehsan Jazini']);
    expect(splitNames('Authors Guild')).toEqual(['Authors Guild']);
    for (const label of ['Contributors:', 'Author(s)', 'Authored by']) expect(splitNames(label)).toEqual([]);
  });

  it('refuses links and sentences', () => {
    expect(splitNames('https://example.com/authors/jane')).toEqual([]);
    expect(splitNames('This story was written with the help of many people in our newsroom')).toEqual([]);
  });
});

describe('authorCandidates', () => {
  /** Each reading of the page's authors with the sources that give it. */
  function candidates(html: string, url = 'https://blog.example/a-post') {
    const document = parseLightPage(html);
    const data = readStructuredData(document, url);
    return authorCandidates(firstRecord(data, ['BlogPosting', 'Article']), data, document, url);
  }

  function readings(html: string): Record<string, string[]> {
    return Object.fromEntries(
      candidates(html).map((c) => [c.names.join(', '), Object.keys(c.features).filter((k) => k.startsWith('from_') && c.features[k]).map((k) => k.slice(5))]),
    );
  }

  it('reads every author of a scholarly page, one citation_author tag each, as one byline', () => {
    const html = `<html><head><meta name="citation_author" content="Aditya Mahindru"><meta name="citation_author" content="Pradeep Patil"><meta name="citation_author" content="Varun Agrawal"></head><body><h1>A review</h1></body></html>`;
    expect(readings(html)).toEqual({ 'Aditya Mahindru, Pradeep Patil, Varun Agrawal': ['meta'] });
  });

  it('reads the author tags of other analytics and Dublin Core vocabularies, and a single citation_author', () => {
    expect(readings(`<html><head><meta property="cXenseParse:author" content="Harry Rabinowitz"></head><body><h1>Smart home hubs</h1></body></html>`)).toEqual({ 'Harry Rabinowitz': ['meta'] });
    expect(readings(`<html><head><meta name="dcterms.creator" content="Nora Ellis"></head><body><h1>GLP-1 drugs</h1></body></html>`)).toEqual({ 'Nora Ellis': ['meta'] });
    expect(readings(`<html><head><meta name="citation_author" content="Md Aynal Haque"></head><body><h1>Homestead gardening</h1></body></html>`)).toEqual({ 'Md Aynal Haque': ['meta'] });
  });

  it('reads the name an author card in a dropped side column left behind (the lean html\'s mark), as a source of its own', () => {
    const page = leanHtml('<html><body><h1>Sleep and screens</h1><p>Text</p><aside class="side-col"><p class="Article_author__x1"><span>Angela Holliday-Bell, MD</span></p></aside></body></html>');
    expect(readings(page)).toEqual({ 'Angela Holliday-Bell, MD': ['furnitureAuthor'] });
  });

  it('reads the author link (rel="author") of a dropped meta column, as the Guardian places its byline in an <aside>', () => {
    const page = leanHtml(
      '<html><body><h1>Five of the best science fiction books of 2025</h1><aside class="dcr-1fnjjtg"><address><div class="dcr-16bbvim"><a rel="author" href="https://www.theguardian.com/profile/adam-roberts">Adam Roberts</a></div></address></aside><p>Text</p></body></html>',
    );
    expect(readings(page)).toEqual({ 'Adam Roberts': ['furnitureAuthor'] });
  });

  it("marks a name that is the site's domain (a company's account, not a writer), and not a writer's name", () => {
    const page = (name: string) => `<html><head><script type="application/ld+json">{"@type":"Article","author":{"@type":"Person","name":"${name}"}}</script></head><body><h1>Gym workouts</h1></body></html>`;
    const inHost = (name: string, url: string) => candidates(page(name), url).map((c) => c.features.inHost);
    expect(inHost('Cleveland Clinic', 'https://health.clevelandclinic.org/how-to-meditate')).toEqual([1]);
    expect(inHost('uclahealth', 'https://www.uclahealth.org/news/article/exercise')).toEqual([1]);
    expect(inHost('TopGear.com', 'https://www.topgear.com/car-news/electric')).toEqual([1]);
    expect(inHost('Holly Wilgus', 'https://health.clevelandclinic.org/how-to-meditate')).toEqual([0]);
    // A short name inside a longer domain label is a coincidence ("Jeff T." on jefftk.com, a writer's own site).
    expect(inHost('Jeff T', 'https://www.jefftk.com/p/backup-strategy')).toEqual([0]);
  });

  it('follows an author given by @id to its Person in a Yoast @graph, and reads the "Written by" label of link previews', () => {
    const html = `<html><head><meta name="twitter:label1" content="Written by" /><meta name="twitter:data1" content="Albert Swann" />
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"Article","@id":"https://blog.example/a-post#article","headline":"Cheap fixes","author":{"@id":"https://blog.example/#/schema/person/aa0d"}},
        {"@type":"Person","@id":"https://blog.example/#/schema/person/aa0d","name":"Albert Swann"}]}</script></head><body><h1>Cheap fixes</h1></body></html>`;
    expect(readings(html)).toEqual({ 'Albert Swann': ['structuredPerson', 'writtenByLabel'] });
  });

  it('reads a byline under the headline: "By <a>Name</a>", a "Written by" label before the name, not "By the time…"', () => {
    expect(readings(`<html><body><h1>New restaurants</h1><p><span> By <a href="/producers/sofia-gonzalez">Sofia Gonzalez</a></span></p><p>By the time we arrived it was full.</p></body></html>`)).toEqual({
      'Sofia Gonzalez': ['bylineText'],
    });
    expect(readings(`<html><body><h1>Restaurant trends</h1><div><p class="text-grey-1200 mb-1">Written by</p><p class="text-grey-700">Edzel Tabing</p></div></body></html>`)).toEqual({
      'Edzel Tabing': ['bylineText'],
    });
    expect(readings(`<html><body><h1>Tutoring franchises</h1><div class="post-detail__meta">September 1st, 2023 <span class="post-detail__meta-author">By Emily Norwood</span></div></body></html>`)).toEqual({
      'Emily Norwood': ['authorWordClass', 'bylineText'],
    });
  });

  it('reads an element whose class words say author ("the-author", "authorName") when its text is a name, not an author bio', () => {
    const html = `<html><body><div class="author-bio">Isaiah writes about video production, marketing and the craft of telling stories for brands.</div>
      <div class="pillar-header-author"><div class="caption">Author</div><div class="the-author">Isaiah Shelton</div></div></body></html>`;
    expect(readings(html)).toEqual({ 'Isaiah Shelton': ['authorWordClass'] });
  });

  it('reads an author box at the foot by its "Written by" / "Author" label, not a bare "By" far below the headline', () => {
    const paragraphs = Array.from({ length: 45 }, (_, i) => `<p>Paragraph ${i} of the article.</p>`).join('');
    expect(readings(`<html><body><h1>Cheap SEO</h1>${paragraphs}<div><p>Written by John Crenshaw</p></div></body></html>`)).toEqual({ 'John Crenshaw': ['labelledByline'] });
    expect(readings(`<html><body><h1>Proofs as types</h1>${paragraphs}<h2>Article by</h2><div>Matias Heikkilä</div></body></html>`)).toEqual({ 'Matias Heikkilä': ['labelledByline'] });
    expect(readings(`<html><body><h1>Cheap SEO</h1>${paragraphs}<blockquote>A quote by Fred Brooks</blockquote><p>By</p><p>Tom Smith</p><h3>Author</h3><p>Recent Posts</p></body></html>`)).toEqual({});
  });

  it("reads the name an author box's photo describes, without its description, and no photo that names nobody", () => {
    const box = (alt: string) => `<html><body><h1>Mobile UX</h1><div class="blog_author-wrapper"><img src="/a.jpg" alt="${alt}"><div class="blog_author-text">Lauren writes about growth marketing for clinics, agencies and the software they run on every day of the week.</div></div></body></html>`;
    expect(readings(box('Lauren Vetter'))).toEqual({ 'Lauren Vetter': ['authorImageAlt'] });
    expect(readings(box('A headshot of Lauren Vetter'))).toEqual({ 'Lauren Vetter': ['authorImageAlt'] });
    expect(readings(box("Lauren Vetter's profile picture"))).toEqual({ 'Lauren Vetter': ['authorImageAlt'] });
    expect(readings(box('Lauren Vetter, Senior Growth Writer'))).toEqual({ 'Lauren Vetter': ['authorImageAlt'] });
    expect(readings(box('Avatar'))).toEqual({});
    expect(readings(box('brown rice, or farro, proteins'))).toEqual({});
  });

  it('reads a link to an /authors/ archive as a byline, and every writer of a byline that links each in its own wrapper', () => {
    expect(readings(`<html><body><h1>Private clouds</h1><div><a href="/blog/authors/emmanuel-oyibo"><img src="/e.png" alt=""><span>Emmanuel Oyibo</span></a></div></body></html>`)).toEqual({
      'Emmanuel Oyibo': ['authorLink'],
    });
    const byline = `<html><body><h1>Best dishwashers</h1><p class="meta">By <strong><a href="/authors/danielle-desiato">Danielle DeSiato</a></strong>, <strong><a href="/authors/donna-enzmann">Donna Enzmann</a></strong></p>
      <p>${'Dishwashers compared over months of testing. '.repeat(6)}</p><ul class="more"><li><a href="/authors/kevin-ohanlon">Kevin O'Hanlon</a></li></ul></body></html>`;
    expect(candidates(byline).find((c) => c.features.from_authorLink)?.names).toEqual(['Danielle DeSiato', 'Donna Enzmann']);
  });

  it('reads a name beside the date in a line under the headline without "By", and no name from a line without a date', () => {
    expect(readings(`<html><body><header><h1>How AI Is Transforming Healthcare</h1><p>Aaron Ricadela | Senior Writer | July 2, 2025</p></header></body></html>`)).toEqual({
      'Aaron Ricadela': ['bylineText'],
    });
    expect(readings(`<html><body><h1>Gym workouts</h1><p>Strength Training | Cardio Plans</p></body></html>`)).toEqual({});
  });

  it('reads a name in its own text beside the date under the headline only where no other place names anyone, and no category or label there', () => {
    expect(readings(`<html><body><h1>HR shared services explained</h1><p>HR shared services have evolved into a cornerstone of HR.</p><p>Elliot Raba</p><p><span>23.07.2025</span><span>·</span><span>6 min read</span></p></body></html>`)).toEqual({
      'Elliot Raba': ['datedName'],
    });
    expect(readings(`<html><body><h1>Mission accomplished!</h1><div><span>2025-12-17</span><span>·</span><a title="Trond Teigen"><div>Trond Teigen</div></a></div></body></html>`)).toEqual({
      'Trond Teigen': ['datedName'],
    });
    expect(readings(`<html><body><h1>Pricing guide</h1><p>Dec 26, 2025 <span>•</span> Mahua Das in <a href="/blog/pm">Project Management</a></p></body></html>`)).toEqual({ 'Mahua Das': ['datedName'] });
    expect(readings(`<html><head><meta name="author" content="Jane Roe"></head><body><h1>Mission accomplished!</h1><div><span>2025-12-17</span><span>·</span><span>Trond Teigen</span></div></body></html>`)).toEqual({ 'Jane Roe': ['meta'] });
    expect(readings(`<html><body><h1>Paid time off</h1><p>HR Strategy</p><p>June 9, 2025</p></body></html>`)).toEqual({});
    expect(readings(`<html><body><h1>Online courses</h1><p>Posted on</p><p>June 29, 2020</p></body></html>`)).toEqual({});
    expect(readings(`<html><body><h1>Scary stories</h1><p>Published on</p><p>May 14, 2025</p><p>Nonessential Thoughts</p></body></html>`)).toEqual({});
  });

  it('reads a "Contributors:" label before the name under the headline', () => {
    expect(readings(`<html><body><h1>Low-light houseplants</h1><div class="tags"><div><strong>Contributors:</strong> Janet Loughrey</div></div></body></html>`)).toEqual({ 'Janet Loughrey': ['bylineText'] });
  });

  it('writes a "Written by A, B, and C" byline as written, and marks the first name alone (a byline\'s first link) as part of a fuller reading', () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Article","author":[{"@type":"Person","name":"Danielle DeSiato"},{"@type":"Person","name":"Donna Enzmann"},{"@type":"Person","name":"Natalie Nguyen"}]}</script></head>
      <body><h1>Best dishwashers</h1><div class="article-byline">Written by <a href="/a/dd">Danielle DeSiato</a>, <a href="/a/de">Donna Enzmann</a>, and <a href="/a/nn">Natalie Nguyen</a> Updated August 14, 2025</div></body></html>`;
    const found = candidates(html).map((c) => [c.text, c.features.partOfAnother]);
    expect(found).toEqual([
      ['Danielle DeSiato, Donna Enzmann, and Natalie Nguyen', 0],
      ['Danielle DeSiato', 1],
    ]);
  });

  it('keeps the names as the byline writes them ("and" included), the list apart', () => {
    const html = `<html><head><script type="application/ld+json">{"@type":"Article","author":[{"@type":"Person","name":"Jared Newman"},{"@type":"Person","name":"Sam Singleton"}]}</script></head>
      <body><h1>Best streaming services</h1><p class="byline">By Jared Newman and Sam Singleton</p></body></html>`;
    const document = parseLightPage(html);
    const data = readStructuredData(document, 'https://blog.example/a-post');
    const [candidate] = authorCandidates(firstRecord(data, ['Article']), data, document);
    expect(candidate).toMatchObject({ names: ['Jared Newman', 'Sam Singleton'], text: 'Jared Newman and Sam Singleton' });
  });
});

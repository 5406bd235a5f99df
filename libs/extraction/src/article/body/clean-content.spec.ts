import { extractArticle } from '../extract-article';

const sentence = (topic: string) => `${topic} is the laptop to get this season, reviewers said, with a fast processor, a bright screen and a battery that lasts all day.`;
const paragraphs = (topic: string, count: number) => Array.from({ length: count }, (_, i) => `<p>${sentence(`${topic} ${i}`)}</p>`).join('');

// Modelled on a deals article (mashable): an SMS sign-up box between the article's paragraphs.
const signupBox = (boxText: string) => `<html><head><title>Deal</title></head><body><main><article itemprop="articleBody">
  ${paragraphs('The MacBook Pro', 3)}
  <section class="relative p-8 my-12 border">
    <div class="font-bold">Deals</div>
    <div><div class="header-300">Be the first to know!</div><div class="header-600">Get editor selected deals texted right to your phone!</div></div>
    <form class="flex flex-col"><input type="tel" placeholder="Enter Phone Number"><button>Sign up</button></form>
    <p>${boxText}</p>
  </section>
  ${paragraphs('The refurbished model', 3)}
</article></main></body></html>`;

describe('cleanContent: sign-up boxes', () => {
  it('drops the box around a sign-up form inside the article, keeping the paragraphs around it', () => {
    const body = extractArticle(signupBox('By signing up, you agree to receive recurring automated messages.'), 'https://example.com/deal').articleBody ?? '';
    expect(body).toContain('The MacBook Pro 2 is the laptop');
    expect(body).toContain('The refurbished model 0 is the laptop');
    expect(body).not.toContain('Be the first to know');
    expect(body).not.toContain('By signing up');
  });

  it('keeps a container with a form when it holds much more text than a sign-up box', () => {
    const body = extractArticle(signupBox(sentence('The long note').repeat(5)), 'https://example.com/deal').articleBody ?? '';
    expect(body).toContain('The long note');
  });
});

// Modelled on the same page: the box's consent text is long enough to read as the article's prose.
const proseSignupBox = `<html><head><title>Deal</title></head><body><main><article>
  ${paragraphs('The MacBook Pro', 3)}
  <section class="relative p-8 my-12 border">
    <div class="font-bold">Deals</div>
    <div><div class="header-300">Be the first to know!</div><div class="header-600">Get editor selected deals texted right to your phone!</div></div>
    <form class="flex flex-col"><input type="tel" placeholder="Enter Phone Number"><button>Sign up</button></form>
    <div class="subtitle-1">By signing up, you agree to receive recurring automated SMS marketing messages at the number provided. Msg and data rates may apply. Up to 2 messages a day. Reply STOP to opt out, HELP for help. Consent is not a condition of purchase. You can change your preferences at any time from the link in each message. See our Privacy Policy and Terms of Use.</div>
  </section>
  ${paragraphs('The refurbished model', 3)}
</article></main></body></html>`;

describe('cleanContent: sign-up boxes that read as prose', () => {
  it('drops the box although its text would make it part of the article\'s core', () => {
    const body = extractArticle(proseSignupBox, 'https://example.com/deal').articleBody ?? '';
    expect(body).toContain('The refurbished model 2 is the laptop');
    expect(body).not.toContain('Be the first to know');
    expect(body).not.toContain('By signing up');
  });
});

// Modelled on a travel listicle (aaa.com): each item's facts in a list whose items React wraps one by one (`<ul><div><li>`).
const wrappedListItems = `<html><head><title>Packages</title></head><body><main><article>
  ${paragraphs('The first package', 2)}
  <div class="spacing"><ul class="list">
    <div><li><span><strong>Itinerary Highlights: </strong>Discover Honolulu, Waikiki, Hilo and Maui.</span></li></div>
    <div><li><span><strong>Trip Details: </strong>A 10-day journey featuring 13 meals.</span></li></div>
  </ul></div>
  ${paragraphs('The second package', 2)}
</article></main></body></html>`;

describe('cleanContent: list items wrapped one by one', () => {
  it('keeps list items whose wrapper stands between them and their list', () => {
    const body = extractArticle(wrappedListItems, 'https://example.com/packages').articleBody ?? '';
    expect(body).toContain('Itinerary Highlights: Discover Honolulu');
    expect(body).toContain('Trip Details: A 10-day journey');
  });
});

// Modelled on a maintenance guide (jiffylube.com) and a ranking (menlocoaching.com): a section with a paragraph of prose and
// a list of more items than paragraphs was judged a box of list items and dropped; a product card of pros and cons is one.
const sectionWithList = `<html><head><title>Maintenance schedule</title></head><body><main><article>
  ${paragraphs('The first car', 3)}
  <div class="resource-block"><h2>Every 30,000 miles</h2><p>${sentence('The 30,000-mile service')} ${sentence('A fuel filter')}</p>
    <ul><li>Hoses</li><li>Lights</li><li>Tire inflation and condition</li><li>Wiper blades</li><li>Fuel filter</li></ul></div>
  <div class="card"><h3>Best for recovery</h3><span>Credit: the shop</span>
    <ul><li>Soft, well-cushioned feel</li><li>Durable outsole</li></ul><ul><li>Heavy</li><li>Pricey</li></ul></div>
  ${paragraphs('The second car', 3)}
</article></main></body></html>`;

describe('cleanContent: prose with lists', () => {
  it('keeps a section of prose whose list has more items than the section has paragraphs', () => {
    const body = extractArticle(sectionWithList, 'https://example.com/schedule').articleBody ?? '';
    expect(body).toContain('The 30,000-mile service is the laptop');
    expect(body).toContain('Tire inflation and condition');
  });

  it("keeps a short paragraph and a list of findings written in sentences (nccih's studies)", () => {
    const findings = `<div class="css-x1"><p>Some studies looked at weight and eating.</p><ul><li>${sentence('A 2017 review of 15 studies')}</li><li>${sentence('A 2018 analysis of 19 studies')}</li></ul></div>`;
    const page = sectionWithList.replace('<div class="card">', `${findings}<div class="card">`);
    const body = extractArticle(page, 'https://example.com/schedule').articleBody ?? '';
    expect(body).toContain('A 2018 analysis of 19 studies is the laptop');
    expect(body).not.toContain('Durable outsole');
  });

  it('still drops a card that is little but its lists', () => {
    const body = extractArticle(sectionWithList, 'https://example.com/schedule').articleBody ?? '';
    expect(body).toContain('The second car 2 is the laptop');
    expect(body).not.toContain('Durable outsole');
  });
});

// Modelled on a newsletter's ranking (clouddb.substack.com): each entry a description, then "See: “…”" pointing to a post.
describe('cleanContent: pointers in a list', () => {
  const page = (items: string[]) => `<html><head><title>Ten newsletters</title></head><body><main><article>
    ${paragraphs('The intro', 2)}<ol>${items.join('')}</ol>${paragraphs('The outro', 1)}
  </article></main></body></html>`;

  it("keeps the pointer that closes an entry written in prose: it is the entry's own reference", () => {
    const entry = (i: number) => `<li><p><a href="/n${i}">Newsletter ${i}</a>, by a writer. ${sentence(`Newsletter ${i}`)}</p><p>See: <em><a href="/n${i}/post">“The best post of newsletter ${i}”</a></em></p></li>`;
    const body = extractArticle(page([0, 1, 2, 3].map(entry)), 'https://example.com/ten').articleBody ?? '';
    expect(body).toContain('See: “The best post of newsletter 2”');
  });

  it('still drops a list whose entries are nothing but pointers', () => {
    const entry = (i: number) => `<li><p>Read: <a href="/n${i}/post">“The best post of newsletter ${i}”</a></p></li>`;
    const body = extractArticle(page([0, 1, 2, 3].map(entry)), 'https://example.com/ten').articleBody ?? '';
    expect(body).toContain('The intro 1 is the laptop');
    expect(body).not.toContain('The best post of newsletter');
  });
});

// Modelled on a teaching guide (teaching.resources.osu.edu) and a ranking (neptune.ai): sentences whose words are mostly links.
describe('cleanContent: paragraphs that are mostly links', () => {
  const page = (linked: string) => `<html><head><title>Teaching online</title></head><body><main><article>
    ${paragraphs('The intro', 3)}<p>${linked}</p>${paragraphs('The outro', 2)}
  </article></main></body></html>`;
  const body = (linked: string) => extractArticle(page(linked), 'https://example.com/teaching-online').articleBody ?? '';

  it('keeps a sentence that links most of its words', () => {
    expect(body('Learn more in <a href="/a">Strategies and Tools for Academic Integrity in Online Environments</a> and <a href="/b">A Positive Approach to Academic Integrity</a>.')).toContain(
      'Learn more in Strategies and Tools',
    );
    expect(body('Companies using Amazon Lex are <a href="/n">Nokia</a>, <a href="/v">Vonage</a>, <a href="/r">Replicon</a>, <a href="/c">ConversationalHEALTH</a>, etc.')).toContain('Companies using Amazon Lex');
  });

  it('still drops a pointer to another post', () => {
    const text = body('Read more: <a href="/p">The twelve best compound exercises for beginners and how to train them</a>');
    expect(text).toContain('The outro 1 is the laptop');
    expect(text).not.toContain('compound exercises');
  });
});

// Modelled on a ranking's intro (roadandtrack.com) and a food-myths article (scripps.org): paragraphs that cite their sources.
describe('cleanContent: prose that cites', () => {
  const page = (box: string) => `<html><head><title>Cars</title></head><body><main><article>
    ${paragraphs('The intro', 3)}<div class="listicle-intro">${box}</div>${paragraphs('The outro', 2)}
  </article></main></body></html>`;
  const body = (box: string) => extractArticle(page(box), 'https://example.com/best-electric-cars').articleBody ?? '';

  it('keeps a container of paragraphs a third links when most of its words are its own', () => {
    const text = body(`<p>Cars are more expensive than ever, and that is doubly true for electric cars, many of which start above <a href="/a">the average new-car price</a>.</p>
      <p>Luckily there are bargains: the <a href="/b">Chevrolet Equinox EV</a> and the <a href="/c">Hyundai Kona Electric</a> both come in well under forty thousand dollars.</p>`);
    expect(text).toContain('Cars are more expensive than ever');
    expect(text).toContain('Luckily there are bargains');
  });

  it('still drops a box of tags and links under one sentence', () => {
    const tags = ['Data', 'Cloud', 'JSON', 'Web Development', 'Automation', 'Operations', 'Communications', 'Support', 'Accounting', 'Growth', 'Data modeling', 'Workflow', 'Low-Code', 'Webhooks'];
    const text = body(`<p>Explore the open roles.</p><div><a href="/j1">Senior Data Analyst (ERP)</a><a href="/j2">Technical Program Manager</a>${tags.map((t) => `<div>${t}</div>`).join('')}</div>`);
    expect(text).toContain('The outro 1 is the laptop');
    expect(text).not.toContain('Senior Data Analyst');
  });
});

// Modelled on an insurer's resource page (psafinancial): a lead form after the article, whose select lists forty industries.
const industries = Array.from({ length: 40 }, (_, i) => `<option>Industry number ${i} and its trades</option>`).join('');
const leadForm = `<html><head><title>Rentals</title></head><body><main><div class="wpb_wrapper">
  ${paragraphs('The rental fleet', 3)}
  <div class="gform_wrapper"><div class="gform_heading"><p class="gform_description">Fill out the form to get a copy of our ebook.</p></div>
    <form id="gform_14"><div class="gform_fields">
      <div class="gfield"><label>Industry*</label><select name="industry">${industries}</select></div>
      <div class="gfield"><input type="text" name="utm_source"><div class="admin-hidden-markup"><span>This field is hidden when viewing the form</span></div></div>
      <div class="gfield"><input type="text" name="honeypot"><div class="gfield_description">This field is for validation purposes and should be left unchanged.</div></div>
    </div><button>Download</button></form>
  </div>
</div></main></body></html>`;

describe('cleanContent: a lead form whose select reads as prose', () => {
  it('drops the form, judging it by its text without its controls', () => {
    const body = extractArticle(leadForm, 'https://example.com/resources/best-practices-vehicle-rentals').articleBody ?? '';
    expect(body).toContain('The rental fleet 2 is the laptop');
    expect(body).not.toContain('This field is hidden');
    expect(body).not.toContain('validation purposes');
  });
});

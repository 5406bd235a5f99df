import { extractArticle } from '../extract-article';

const paragraph = (topic: string) =>
  `<p>${topic} is one of the first commands a developer learns, and it shows, in a few lines, what the repository holds and what changed since the last commit.</p>`;

// Modelled on a developer's post (coryd.dev): highlight.js names the comment spans of a code block "hljs-comment",
// and the comment lines of the block were pruned as readers' comments.
const postWithCode = `<html><head><title>A brief intro to git</title></head><body><main><article>
  <h1>A brief intro to git</h1>
  ${paragraph('git status')}
  ${paragraph('git add')}
  <pre><code class="language-bash hljs bash"><span class="hljs-comment"># view the state of the repo</span>
git status

<span class="hljs-comment"># stage all of your modified and untracked files</span>
git add -A</code></pre>
  ${paragraph('git commit')}
  <div class="comments"><p>Great post, thanks for writing it up, I finally understand how staging works in practice.</p></div>
</article></main></body></html>`;

describe('removeBoilerplate: code', () => {
  it("keeps a code block's highlighted comments, which a syntax highlighter names for what they are", () => {
    const body = extractArticle(postWithCode, 'https://example.com/posts/git').articleBody ?? '';
    expect(body).toContain('# view the state of the repo');
    expect(body).toContain('# stage all of your modified and untracked files');
    expect(body).toContain('git add -A');
  });

  it("still drops readers' comments outside the code", () => {
    const body = extractArticle(postWithCode, 'https://example.com/posts/git').articleBody ?? '';
    expect(body).toContain('git commit is one of the first commands');
    expect(body).not.toContain('Great post');
  });
});

// Modelled on a how-to post built with Elementor (derekseaman.com): each sub-heading is its own
// "elementor-widget elementor-widget-heading" block, and the word "widget" pruned them all as sidebar widgets.
const elementorBlock = (kind: string, inner: string) =>
  `<div class="elementor-element elementor-widget elementor-widget-${kind}"><div class="elementor-widget-container">${inner}</div></div>`;
const elementorText = (topic: string) =>
  elementorBlock('text-editor', `<p>${`${topic} is what this section of the guide explains, step by step, with the parts we bought and the settings we used at home. `.repeat(3)}</p>`);
const elementorPost = `<html><head><title>Room presence with Bluetooth</title></head><body><main><article><div class="elementor-widget-wrap">
  <h1>Room presence with Bluetooth</h1>
  ${elementorText('Room-based presence detection')}
  ${elementorBlock('heading', '<h2 class="elementor-heading-title">What is a Bluetooth Proxy?</h2>')}
  ${elementorText('A Bluetooth proxy')}
  ${elementorBlock('heading', '<h2 class="elementor-heading-title">Powering your ESP32 Device</h2>')}
  ${elementorText('Powering the board')}
  ${elementorText('Placing the boards in each room')}
  ${elementorBlock('share-buttons', '<div class="elementor-share-buttons"><a href="https://facebook.com/share">Share on Facebook</a> <a href="https://x.com/share">Share on X</a></div>')}
</div></article></main></body></html>`;

describe('removeBoilerplate: page builders', () => {
  it("keeps Elementor's heading blocks, whose names say widget for every block of the page", () => {
    const body = extractArticle(elementorPost, 'https://example.com/2025/12/bluetooth-rooms.html').articleBody ?? '';
    expect(body).toContain('What is a Bluetooth Proxy?');
    expect(body).toContain('Powering your ESP32 Device');
    expect(body).toContain('A Bluetooth proxy is what this section');
  });

  it("still drops an Elementor block named for sharing", () => {
    const body = extractArticle(elementorPost, 'https://example.com/2025/12/bluetooth-rooms.html').articleBody ?? '';
    expect(body).not.toContain('Share on Facebook');
  });
});

// Modelled on a bank's tips page built with HubSpot (cbcbank.com): every row, column and module is
// named a widget ("widget-span widget-type-cell" > "widget-type-custom_widget" > "hs_cos_wrapper_widget"),
// each tip in its own row; the body kept the row the scoring chose and pruned the others as sidebar widgets.
const hubspotRow = (tip: string) =>
  `<div class="row-fluid-wrapper dnd-section"><div class="row-fluid"><div class="span12 widget-span widget-type-cell dnd-column">
    <div class="span12 widget-span widget-type-custom_widget dnd-module"><div class="hs_cos_wrapper hs_cos_wrapper_widget hs_cos_wrapper_type_rich_text">
      <h2>${tip}</h2><p>${tip} is the step this part of the guide explains, with an example budget, the accounts that help and the mistakes that cost working adults the most.</p>
      <p>Most readers can start ${tip.toLowerCase()} this month, and the sooner they do, the longer compound interest works for them.</p>
    </div></div></div></div></div>`;
const hubspotPage = `<html><head><title>Top financial tips</title></head><body><main><div class="span12 widget-span widget-type-cell">
  ${['Set your goals', 'Track your spending', 'Build an emergency fund', 'Automate your savings'].map(hubspotRow).join('')}
  </div>
  <div class="widget widget_recent_entries"><h3>Recent posts</h3><ul><li><a href="/a">Five ways to save on groceries this autumn</a></li><li><a href="/b">How to open a checking account online</a></li></ul></div>
</main></body></html>`;

describe('removeBoilerplate: page builders that name every block a widget', () => {
  it("keeps every section of a page whose blocks, holding most of its prose, are all named widgets (HubSpot)", () => {
    const body = extractArticle(hubspotPage, 'https://example.com/top-financial-tips').articleBody ?? '';
    for (const tip of ['Set your goals', 'Track your spending', 'Build an emergency fund', 'Automate your savings']) {
      expect(body).toContain(`${tip} is the step this part of the guide explains`);
    }
  });

  it('still drops a widget outside the blocks that hold the prose', () => {
    const body = extractArticle(hubspotPage, 'https://example.com/top-financial-tips').articleBody ?? '';
    expect(body).not.toContain('Five ways to save on groceries');
  });
});

// Modelled on a research brief (kff.org): a heading's anchor id is made from its words, and
// "what-share-of-adolescents-…" said share, so the sub-heading was pruned as a share bar.
const findings = (topic: string) =>
  `<p>${topic} rose over the decade, according to the national survey, with the largest changes among older adolescents and those with lower family incomes.</p>`;
const briefWithAnchors = `<html><head><title>Adolescent mental health</title></head><body><main><article>
  <h1>Adolescent mental health</h1>
  ${findings('Reported anxiety')}${findings('Reported depression')}
  <h2 class="wp-block-heading" id="what-share-of-adolescents-experience-poor-mental-health">What share of adolescents experience poor mental health?</h2>
  ${findings('Poor mental health')}${findings('Treatment')}
  <div id="related-posts"><a href="/a">Youth substance use</a> <a href="/b">School counselors</a></div>
</article></main></body></html>`;

describe('removeBoilerplate: anchors', () => {
  it("keeps a heading whose anchor id, made from its words, holds a furniture word", () => {
    const body = extractArticle(briefWithAnchors, 'https://example.com/brief').articleBody ?? '';
    expect(body).toContain('What share of adolescents experience poor mental health?');
  });

  it('still drops a block (not a heading) whose id names furniture', () => {
    const body = extractArticle(briefWithAnchors, 'https://example.com/brief').articleBody ?? '';
    expect(body).toContain('Treatment rose over the decade');
    expect(body).not.toContain('Youth substance use');
  });
});

// Modelled on a personal blog (davidbau.com): readers' comments below the post, each in a "comments-body" block
// long enough that the word "body" passed it for the article's.
const commentsBody = (text: string) => `<div class="comments-body"><p>${text.repeat(4)}</p><span class="comments-post">Posted by: John</span></div>`;
const postWithNamedComments = `<html><head><title>Vibe coding</title></head><body><div id="container"><div class="blog">
  <h1>Vibe coding</h1>
  ${Array.from({ length: 4 }, (_, i) => `<p>Part ${i}: I asked an agent to build the fractal viewer, and it wrote the tests, the build and the docs, which took me a weekend to read, review and understand.</p>`).join('')}
  <div class="comments-head">Comments</div>
  ${commentsBody('Management by abdication is a dangerous path for any team that ships code. ')}
  ${commentsBody('What happens when the code controls a pacemaker or a power plant instead? ')}
</div></div></body></html>`;

describe('removeBoilerplate: comments', () => {
  it("drops readers' comments whose block is named a comment's body", () => {
    const body = extractArticle(postWithNamedComments, 'https://example.com/archives/2025/12/vibe_coding.html').articleBody ?? '';
    expect(body).toContain('Part 3: I asked an agent');
    expect(body).not.toContain('Management by abdication');
    expect(body).not.toContain('pacemaker');
  });
});

// Modelled on an Invision forum thread (discussion.evernote.com): every post is named a comment ("ipsComment_content").
const forumPost = (author: string) => `<article class="cPost ipsComment"><div class="ipsComment_content ipsType_medium"><div class="cPost_contentWrap ipsType_richText">
  <p>${`${author} wrote that the new interface hides the notebooks behind two clicks, which slows down every search, every tag and every shortcut they used daily. `.repeat(3)}</p>
</div></div></article>`;
const forumThread = `<html><head><title>New UI 2024</title></head><body><div class="cTopic">
  <h1>New UI 2024</h1>${forumPost('Anna')}${forumPost('Ben')}
</div></body></html>`;

describe('removeBoilerplate: forums', () => {
  it("keeps a forum's posts, which the forum names comments", () => {
    const body = extractArticle(forumThread, 'https://example.com/forums/topic/150745-new-ui-2024/').articleBody ?? '';
    expect(body).toContain('Anna wrote that the new interface');
    expect(body).toContain('Ben wrote that the new interface');
  });
});

// Modelled on a WordPress theme (talkandroid.com): the author box below the article is "cs-entry__author-description",
// an author box inside the entry; the block's word "entry" passed it for the article's.
const postWithAuthorBox = `<html><head><title>Smart lamps</title></head><body><main><article class="cs-entry">
  <h1>The best smart home lamps</h1>
  ${Array.from({ length: 4 }, (_, i) => `<p>Lamp ${i} responds quickly once linked to a speaker, with warm and cool tones for every mood, and a schedule that follows the sunset.</p>`).join('')}
  <div class="cs-entry__author"><div class="cs-entry__author-description">${'Irene is an experienced writer with five years of experience in the tech and food niches. '.repeat(4)}</div></div>
</article></main></body></html>`;

describe('removeBoilerplate: BEM names', () => {
  it("drops an author box named for the article block it sits in", () => {
    const body = extractArticle(postWithAuthorBox, 'https://example.com/519086-best-smart-home-lamps').articleBody ?? '';
    expect(body).toContain('Lamp 3 responds quickly');
    expect(body).not.toContain('Irene is an experienced writer');
  });

  // Modelled on a photo-tour guide (iceland-photo-tours.com): CSS modules name each block "Component_local__hash",
  // and the article's chunks "articleWidgetHTML_root___dYTF", whose words are the component's.
  it("keeps an article's chunks named by a CSS module, whose hash is not what they are", () => {
    const chunk = (topic: string) => `<div class="articleWidgetHTML_root___dYTF"><p>${`${topic} suits beginners who want sharp landscapes without carrying a heavy bag up the glacier. `.repeat(4)}</p></div>`;
    const page = `<html><head><title>Cameras</title></head><body><main><div class="ArticleLayout_content__x1"><h1>Types of cameras</h1>
      ${chunk('A mirrorless camera')}${chunk('A compact camera')}${chunk('A drone')}</div></main></body></html>`;
    const body = extractArticle(page, 'https://example.com/articles/types-of-cameras').articleBody ?? '';
    expect(body).toContain('A compact camera suits beginners');
    expect(body).toContain('A drone suits beginners');
  });
});

// Modelled on a solar installation guide (energysage.com): each step's text sits in an accordion panel
// that a script opens ("es-accordion" > `<div style="display:none">`), and the whole timeline was dropped as hidden.
const accordionStep = (title: string, topic: string) =>
  `<div class="es-accordion es-accordion--default"><button aria-expanded="false">${title}</button><div style="display:none;">${paragraph(topic)}</div></div>`;
const guideWithAccordion = `<html><head><title>Solar panel installation guide</title></head><body><main><article>
  <h1>Solar panel installation guide</h1>
  ${paragraph('Choosing an installer')}
  ${paragraph('Comparing quotes')}
  <div class="es-accordion-list">${accordionStep('Weeks 1-2', 'Signing the contract')}${accordionStep('Weeks 3-4', 'The site survey')}</div>
  <div class="promo-bar" style="display:none"><p>Get a free quote from a vetted installer in your area today and save on your first year of solar energy.</p></div>
</article></main></body></html>`;

describe('removeBoilerplate: collapsed panels', () => {
  it("keeps an accordion's hidden panels, which the reader opens to read the steps", () => {
    const body = extractArticle(guideWithAccordion, 'https://example.com/solar/guide').articleBody ?? '';
    expect(body).toContain('Signing the contract is one of the first commands');
    expect(body).toContain('The site survey is one of the first commands');
  });

  it('still drops a hidden block that no accordion names', () => {
    const body = extractArticle(guideWithAccordion, 'https://example.com/solar/guide').articleBody ?? '';
    expect(body).toContain('Comparing quotes');
    expect(body).not.toContain('Get a free quote');
  });
});

// Modelled on an investing guide (fool.com): React's streamed rendering sends the article's sections as
// `<div hidden id="S:1">` at the end of the body, each moved into place by a script; all but one were dropped as hidden.
const segment = (n: number, topic: string) => `<div hidden id="S:${n}"><section><h2>${topic}</h2>${paragraph(topic)}${paragraph(`${topic}, again,`)}</section></div>`;
const streamedPage = `<html><head><title>How to invest in index funds</title></head><body>
  <main><h1>How to invest in index funds</h1><template id="B:1"></template><template id="B:2"></template><template id="B:3"></template></main>
  ${segment(1, 'Choosing an index')}${segment(2, 'Buying fund shares')}${segment(3, 'Tax considerations')}
  <div hidden><p>Our newsletter brings you the best stock ideas every week, straight to your inbox, for free.</p></div>
  <script>$RC("B:1","S:1");$RC("B:2","S:2");$RC("B:3","S:3")</script>
</body></html>`;

describe('removeBoilerplate: streamed segments', () => {
  it("keeps React's streamed segments, which the reader sees once the script moves them", () => {
    const body = extractArticle(streamedPage, 'https://example.com/invest/index-funds').articleBody ?? '';
    for (const topic of ['Choosing an index', 'Buying fund shares', 'Tax considerations']) expect(body).toContain(`${topic} is one of the first commands`);
    expect(body).not.toContain('Our newsletter brings you');
  });
});

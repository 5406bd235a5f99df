import { extractArticle } from './extract-article';

/**
 * Article markup of common publishing platforms as their default themes and plugins write it
 * (WordPress with Jetpack's sharing and related posts, Ghost, Drupal, Blogger): rules that
 * hold for them hold for many sites the benchmark never saw.
 */
const P1 = 'The council voted on Tuesday to rebuild the old bridge, a project that has been discussed for more than a decade, and work will start in spring.';
const P2 = 'Engineers say the new structure will carry twice the traffic, while residents worry about the noise, the detours and the cost to local shops.';
const P3 = 'The mayor said the city had secured most of the money from the regional fund, and that the rest would come from a bond issue next year.';
const PROSE = [P1, P2, P3];
const paragraphs = PROSE.map((p) => `<p>${p}</p>`).join('\n');

function expectBodyIsTheProse(html: string, url: string, notInBody: string[]) {
  const article = extractArticle(html, url);
  expect(article.articleBody?.split('\n')).toEqual(PROSE);
  for (const text of notInBody) expect(article.articleBody).not.toContain(text);
  return article;
}

describe('extractArticle on publishing platforms\u2019 default markup', () => {
  it('WordPress with Jetpack: sharing buttons, related posts, author box and comments stay out', () => {
    const article = expectBodyIsTheProse(
      `<html lang="en-US"><head><title>Bridge to be rebuilt &#8211; Town News</title><meta property="og:type" content="article"></head><body class="post-template-default single single-post">
      <header id="site-header" class="header-footer-group"><div class="header-titles"><a href="/">Town News</a></div><nav class="primary-menu-wrapper"><ul><li><a href="/">Home</a></li><li><a href="/local">Local</a></li></ul></nav></header>
      <main id="site-content"><article class="post-42 post type-post status-publish format-standard hentry category-local" id="post-42">
      <header class="entry-header has-text-align-center"><h1 class="entry-title">Bridge to be rebuilt</h1>
      <div class="post-meta-wrapper"><ul class="post-meta"><li class="post-author meta-wrapper">By <a href="/author/jane">Jane Doe</a></li><li class="post-date meta-wrapper"><a href="/2024/03/05/bridge"><time datetime="2024-03-05T09:30:00+00:00">March 5, 2024</time></a></li></ul></div></header>
      <div class="post-inner thin"><div class="entry-content">
      ${paragraphs}
      <div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social sd-social-icon-text sd-sharing"><h3 class="sd-title">Share this:</h3><div class="sd-content"><ul><li class="share-twitter"><a class="share-twitter sd-button" href="/?share=twitter"><span>Twitter</span></a></li><li class="share-facebook"><a href="/?share=facebook" class="share-facebook sd-button"><span>Facebook</span></a></li></ul></div></div></div>
      <div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related</em></h3><div class="jp-relatedposts-items"><p class="jp-relatedposts-post"><a href="/2024/01/roads">New roads for the east side, the council says</a></p></div></div>
      </div></div>
      <div class="author-bio"><h2 class="author-title">Jane Doe</h2><div class="author-description"><p>Jane covers the town hall and writes about local politics, transport and housing for Town News.</p></div></div>
      </article>
      <div class="comments-wrapper section-inner"><div class="comments" id="comments"><h2 class="comment-reply-title">2 replies on “Bridge to be rebuilt”</h2><div class="comment-body"><p>About time, this bridge has been a danger to cyclists for years and everybody knew it.</p></div></div></div>
      </main><footer id="site-footer"><p>&copy; 2024 Town News</p></footer></body></html>`,
      'https://town.example/2024/03/05/bridge-to-be-rebuilt/',
      ['Share this', 'Related', 'New roads', 'Jane covers', 'About time', 'Town News'],
    );
    expect(article.headline).toBe('Bridge to be rebuilt');
    expect(article.datePublished).toBe('2024-03-05T09:30:00+00:00');
    expect(article.authorsList).toEqual(['Jane Doe']);
    expect(article.inLanguage).toBe('en');
  });

  it('Ghost (Casper): the post content, not the subscribe form or the read-more cards', () => {
    expectBodyIsTheProse(
      `<html lang="en"><head><title>Bridge to be rebuilt</title></head><body class="post-template"><div class="site-wrapper"><main id="site-main" class="site-main">
      <article class="article post featured"><header class="article-header gh-canvas"><h1 class="article-title">Bridge to be rebuilt</h1><p class="article-excerpt">A decade of talk ends.</p>
      <div class="article-byline"><div class="article-byline-meta"><h4 class="author-name"><a href="/author/jane/">Jane Doe</a></h4><div class="byline-meta-content"><time class="byline-meta-date" datetime="2024-03-05">Mar 5, 2024</time></div></div></div></header>
      <section class="gh-content gh-canvas">${paragraphs}</section>
      <section class="article-comments gh-canvas"></section></article></main>
      <aside class="read-more-wrap outer"><div class="read-more inner"><article class="post-card post"><a class="post-card-image-link" href="/roads/"><h2 class="post-card-title">New roads for the east side</h2></a><div class="post-card-excerpt">The council says the east side will get new roads by the end of the year.</div></article></div></aside>
      <section class="footer-cta outer"><div class="inner"><h2 class="footer-cta-title">Sign up for more like this.</h2><a class="footer-cta-button" href="#/portal">Enter your email</a></div></section>
      </div></body></html>`,
      'https://blog.example/bridge-to-be-rebuilt/',
      ['A decade of talk', 'New roads', 'Sign up'],
    );
  });

  it('Drupal: the body field, not the node links, tags or the block regions', () => {
    expectBodyIsTheProse(
      `<html lang="en" dir="ltr"><head><title>Bridge to be rebuilt | Town</title></head><body class="path-node page-node-type-article"><div class="dialog-off-canvas-main-canvas">
      <header role="banner"><div class="region region-header"><div id="block-site-branding"><a href="/">Town</a></div></div></header>
      <main role="main"><div class="layout-content"><div class="region region-content"><article role="article" class="node node--type-article node--view-mode-full">
      <h2><span class="field field--name-title">Bridge to be rebuilt</span></h2>
      <footer class="node__meta"><div class="node__submitted">Submitted by <span class="field--name-uid"><span>jane</span></span> on <span class="field--name-created">Tue, 03/05/2024 - 09:30</span></div></footer>
      <div class="node__content"><div class="clearfix text-formatted field field--name-body field--type-text-with-summary field--label-hidden field__item">${paragraphs}</div>
      <div class="field field--name-field-tags field--type-entity-reference field--label-above"><div class="field__label">Tags</div><div class="field__items"><div class="field__item"><a href="/taxonomy/term/1">bridges</a></div><div class="field__item"><a href="/taxonomy/term/2">council</a></div></div></div>
      <ul class="links inline"><li class="comment-forbidden"><a href="/user/login">Log in</a> to post comments</li></ul></div></article></div></div>
      <aside class="layout-sidebar-first" role="complementary"><div class="region region-sidebar-first"><div id="block-recentcontent"><h2>Recent content</h2><ul><li><a href="/roads">New roads for the east side</a></li></ul></div></div></aside></main>
      </div></body></html>`,
      'https://town.example/node/42',
      ['Submitted by', 'Tags', 'bridges', 'Log in', 'Recent content'],
    );
  });

  it('Blogger: the post body, not the post footer or the blog archive', () => {
    expectBodyIsTheProse(
      `<html><head><title>Town blog: Bridge to be rebuilt</title></head><body><div class="content-outer"><div class="main-outer"><div class="column-center-outer"><div class="main section" id="main">
      <div class="date-outer"><h2 class="date-header"><span>Tuesday, March 5, 2024</span></h2><div class="date-posts"><div class="post-outer"><div class="post hentry" itemprop="blogPost" itemscope itemtype="http://schema.org/BlogPosting">
      <h3 class="post-title entry-title" itemprop="name">Bridge to be rebuilt</h3>
      <div class="post-body entry-content" id="post-body-123" itemprop="description articleBody">${paragraphs}<div style="clear: both;"></div></div>
      <div class="post-footer"><div class="post-footer-line post-footer-line-1"><span class="post-author vcard">Posted by <span class="fn" itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Jane Doe</span></span></span> <span class="post-comment-link"><a class="comment-link" href="#comments">No comments:</a></span></div>
      <div class="post-footer-line post-footer-line-2"><span class="post-labels">Labels: <a href="/search/label/council" rel="tag">council</a></span></div></div></div></div></div></div></div></div>
      <div class="column-right-outer"><div class="sidebar section" id="sidebar-right-1"><div class="widget BlogArchive" id="BlogArchive1"><h2>Blog Archive</h2><ul class="hierarchy"><li class="archivedate"><a href="/2024/">2024</a> (12)</li></ul></div></div></div>
      </div></div></body></html>`,
      'https://townblog.example/2024/03/bridge-to-be-rebuilt.html',
      ['Posted by', 'Labels', 'No comments', 'Blog Archive'],
    );
  });
});

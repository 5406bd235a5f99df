import { extractArticle } from '../extract-article';

const reply = (i: number) =>
  `Reply ${i}: I would call it English for car rental businesses, since the course teaches the words a clerk at the counter needs, and a learner searching for it would type those words first.`;

// Modelled on a XenForo thread (usingenglish, avforums): every post's author card lists the same labelled facts in `dl.pairs`.
const post = (i: number, location: string) => `<article class="message message--post">
  <section class="message-user">
    <h4 class="message-name"><a href="/members/${i}/">member${i}</a></h4>
    <div class="message-userExtras">
      <dl class="pairs pairs--justified"><dt>Joined</dt><dd>Dec 23, 2009</dd></dl>
      <dl class="pairs pairs--justified"><dt>Messages</dt><dd>${1200 + i}</dd></dl>
      <dl class="pairs pairs--justified"><dt>Location</dt><dd>${location}</dd></dl>
    </div>
  </section>
  <div class="message-content"><div class="bbWrapper">${reply(i)}</div></div>
</article>`;

const thread = `<html><head><title>Car rental or car rent?</title></head><body><div class="p-body">
  <h1>Car rental or car rent?</h1>
  <div class="block-body">${[post(1, 'Spain'), post(2, 'Ireland'), post(3, 'Germany'), post(4, 'Chile')].join('')}</div>
</div></body></html>`;

// Modelled on phpBB (forums.raspberrypi.com): the profile column's "Posts: 9179" beside each post.
const phpbbPost = (i: number) => `<div class="post"><div class="inner">
  <dl class="postprofile"><dt><a href="/memberlist.php?u=${i}">poster${i}</a></dt><dd class="profile-posts"><strong>Posts:</strong> ${90 * i}</dd></dl>
  <div class="postbody"><div class="content">${reply(i)}</div></div>
</div></div>`;

// An article that states its facts once, in a definition list: no template, the facts are the article's.
const profile = `<html><head><title>Ada Lovelace</title></head><body><article>
  <h1>Ada Lovelace</h1>
  <p>Ada Lovelace wrote the first published program, a method for the Analytical Engine to compute Bernoulli numbers, in her notes on a paper by Menabrea.</p>
  <dl><dt>Born in</dt><dd>London, England</dd><dt>Known for</dt><dd>The first computer program</dd></dl>
  <p>Her notes, three times the length of the paper they annotated, imagined the engine composing music and working on any symbols, not only numbers.</p>
</article></body></html>`;

describe('removeRepeatedLabels: a template of labelled facts under every item', () => {
  it("drops the author cards' labelled facts of a thread, keeping the posts and their authors' names", () => {
    const body = extractArticle(thread, 'https://forum.example.com/threads/car-rental.1/').articleBody ?? '';
    for (const i of [1, 2, 3, 4]) expect(body).toContain(`Reply ${i}: I would call it`);
    expect(body).toContain('member2');
    expect(body).not.toContain('Joined');
    expect(body).not.toContain('Messages');
    expect(body).not.toContain('Ireland');
  });

  it('drops a labelled line that repeats under each post ("Posts: 180")', () => {
    const page = `<html><head><title>LEDs</title></head><body><div id="page-body"><h2>Turning off all LEDs</h2>${[1, 2, 3].map(phpbbPost).join('')}</div></body></html>`;
    const body = extractArticle(page, 'https://forums.example.com/viewtopic.php?t=1').articleBody ?? '';
    expect(body).toContain('Reply 3: I would call it');
    expect(body).not.toContain('Posts:');
  });

  it('keeps facts an article states once', () => {
    const body = extractArticle(profile, 'https://example.com/ada-lovelace').articleBody ?? '';
    expect(body).toContain("London, England");
    expect(body).toContain('Known for');
  });
});

import { parseLightPage } from '../../dom';
import { renderText } from './render-body';

const render = (inner: string) => renderText([parseLightPage(`<html><body><div class="entry-content">${inner}</div></body></html>`).querySelector('.entry-content')!]);

describe('renderText', () => {
  // Modelled on soliant.com's ranking: WordPress wraps each table in a figure with a caption.
  it('keeps a table that WordPress wraps in a figure, and leaves its caption out', () => {
    const text = render(`<p>The ranking follows.</p>
      <figure class="wp-block-table"><table><tbody><tr><td>1</td><td>Massachusetts</td><td>74.5</td></tr><tr><td>2</td><td>Vermont</td><td>71.2</td></tr></tbody></table>
      <figcaption>Source: the state surveys</figcaption></figure>`);
    expect(text).toContain('Massachusetts');
    expect(text).toContain('Vermont');
    expect(text).not.toContain('Source: the state surveys');
  });

  // Modelled on getjobber.com's testimonials and conductor.com's expert quotes.
  it('keeps a quote set in a figure', () => {
    expect(render(`<p>Owners told us how they grow.</p><figure class="pullquote-testimonial"><blockquote><p>Join local networking groups.</p></blockquote><figcaption>Sam, owner</figcaption></figure>`)).toContain(
      'Join local networking groups.',
    );
  });

  it('still leaves out a figure of an image and its caption, and an embedded post', () => {
    const text = render(`<p>The launch went well.</p><figure class="wp-block-image"><img src="/a.png"><figcaption>The launch pad at dawn</figcaption></figure>
      <figure class="wp-block-embed is-provider-twitter wp-block-embed-twitter"><div class="wp-block-embed__wrapper"><blockquote class="twitter-tweet"><p>What a launch! pic.twitter.com/x</p></blockquote></div></figure>`);
    expect(text).toBe('The launch went well.');
  });

  // Modelled on heatherhandmade.com's roundup (WP Tasty Roundups): each entry a card "…-item-has-image" with its description.
  it('keeps a card whose class says it has a picture, and still leaves out a block named a picture', () => {
    const text = render(`<p>Here are the machines we tried.</p>
      <div class="tasty-roundups-item tasty-roundups-item-has-image"><img src="/m.jpg"><h3>Brother CS7000X</h3><p>A computerised machine with seventy stitches, easy threading and a wide table.</p></div>
      <div class="hero-image"><span>Photo by Anna</span></div>`);
    expect(text).toContain('A computerised machine with seventy stitches');
    expect(text).not.toContain('Photo by Anna');
  });

  // Modelled on constructioncoverage.com's table of home prices by month.
  it("keeps the dates in a table's cells, and still leaves out a dateline", () => {
    const text = render(`<p>Updated March 5, 2021</p><p>Prices rose in every city we studied.</p>
      <table><tr><th>Month</th><th>Median price</th></tr><tr><td>5/1/2017</td><td>$310,000</td></tr><tr><td>7/1/2020</td><td>$355,000</td></tr></table>`);
    expect(text).toContain('5/1/2017');
    expect(text).toContain('7/1/2020');
    expect(text).not.toContain('Updated March 5, 2021');
  });
});

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

import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

/** The description's HTML inside the wrapper, without the newlines react-markdown puts between blocks. */
function html(source: string): string {
  const out = renderToStaticMarkup(<Markdown source={source} />);
  return out
    .replace(/^<div class="markdown">|<\/div>$/g, '')
    .replace(/>\n+</g, '><')
    .trim();
}

describe('Markdown', () => {
  it('shows a product description: a bulleted list with bold', () => {
    expect(html('- 60,000 credits a month\n- **25 hours** of storage')).toBe(
      '<ul><li>60,000 credits a month</li><li><strong>25 hours</strong> of storage</li></ul>',
    );
  });

  it('splits paragraphs on blank lines, shows headings as emphasised paragraphs, reads numbered lists', () => {
    expect(html('## Plan\nLine one\nline two\n\n1. one\n2. two')).toBe(
      '<p class="markdown__heading">Plan</p><p>Line one\nline two</p><ol><li>one</li><li>two</li></ol>',
    );
  });

  it('shows italic, code and nested emphasis', () => {
    expect(html('*fast* and `code` and **very _much_**')).toBe(
      '<p><em>fast</em> and <code>code</code> and <strong>very <em>much</em></strong></p>',
    );
  });

  it('keeps HTML as text: nothing in the description is ever read as markup', () => {
    const out = html('<img src=x onerror=alert(1)>\n\nHi <b onclick="x()">there</b>');
    expect(out).not.toMatch(/<img|<b[ >]/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&lt;b onclick=&quot;x()&quot;&gt;there&lt;/b&gt;');
  });

  it('makes links only to web and mail addresses, opened in a new tab', () => {
    expect(html('[docs](https://clipseek.app/docs) or [mail](mailto:sales@clipseek.app)')).toBe(
      '<p><a href="https://clipseek.app/docs" target="_blank" rel="noopener noreferrer">docs</a> or ' +
        '<a href="mailto:sales@clipseek.app" target="_blank" rel="noopener noreferrer">mail</a></p>',
    );
    expect(html('[click](javascript:alert%281%29) [x](data:text/html,x) [rel](/admin)')).toBe('<p>click x rel</p>');
  });

  it('keeps only the text of markdown a description does not use, and loads no image', () => {
    expect(html('> quoted\n\n![tracker](https://evil.example/p.gif)\n\n---')).toBe('<p>quoted</p><p>tracker</p>');
  });
});

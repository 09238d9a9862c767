import ReactMarkdown, { type Components, type UrlTransform } from 'react-markdown';

/** Links may only lead to the web or to an email address; any other URL is dropped (and an image's source with it). */
export const safeUrl: UrlTransform = (url, key) => {
  const trimmed = url.trim();
  return key === 'href' && /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : null;
};

/** What a product description may show; other markdown (quotes, code blocks, rules) keeps its text only. */
const ALLOWED = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'a', 'img'];

const heading: Components['h1'] = ({ children }) => <p className="markdown__heading">{children}</p>;

const COMPONENTS: Components = {
  h1: heading,
  h2: heading,
  h3: heading,
  h4: heading,
  h5: heading,
  h6: heading,
  // A link whose address `safeUrl` refused keeps its text and is no link.
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <>{children}</>
    ),
  // No image is loaded from a description: it shows its alt text.
  img: ({ alt }) => <>{alt}</>,
};

/**
 * Renders a short markdown text (product descriptions) as React elements with react-markdown.
 * Raw HTML in the text stays text (no rehype-raw), so nothing from it is ever read as HTML.
 */
export function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <div className={['markdown', className].filter(Boolean).join(' ')}>
      <ReactMarkdown allowedElements={ALLOWED} unwrapDisallowed urlTransform={safeUrl} components={COMPONENTS}>
        {source}
      </ReactMarkdown>
    </div>
  );
}

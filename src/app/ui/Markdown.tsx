import { useMemo, type ReactNode } from 'react';
import { parseMarkdown, type MdInline } from './markdown';

function inline(nodes: MdInline[]): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'strong':
        return <strong key={i}>{inline(node.children)}</strong>;
      case 'em':
        return <em key={i}>{inline(node.children)}</em>;
      case 'code':
        return <code key={i}>{node.text}</code>;
      case 'link':
        return (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
            {inline(node.children)}
          </a>
        );
      default:
        return null;
    }
  });
}

/** Renders a short markdown text (see `parseMarkdown`) as React elements; the text is never read as HTML. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const blocks = useMemo(() => parseMarkdown(source), [source]);
  return (
    <div className={['markdown', className].filter(Boolean).join(' ')}>
      {blocks.map((block, i) => {
        switch (block.type) {
          case 'paragraph':
            return <p key={i}>{inline(block.children)}</p>;
          case 'heading':
            return (
              <p key={i} className="markdown__heading">
                {inline(block.children)}
              </p>
            );
          case 'list': {
            const items = block.items.map((item, j) => <li key={j}>{inline(item)}</li>);
            return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
          default:
            return null;
        }
      })}
    </div>
  );
}

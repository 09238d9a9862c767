/**
 * A small markdown reader for product descriptions: paragraphs, headings, bulleted and numbered
 * lists, **bold**, *italic*, `code` and [links](https://...). It returns a tree that `Markdown`
 * renders as React elements, so no HTML from the text ever reaches the page.
 */
export type MdInline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: MdInline[] }
  | { type: 'em'; children: MdInline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: MdInline[] };

export type MdBlock =
  | { type: 'paragraph'; children: MdInline[] }
  | { type: 'heading'; children: MdInline[] }
  | { type: 'list'; ordered: boolean; items: MdInline[][] };

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/** Links may only lead to the web or to an email address; anything else stays plain text. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : null;
}

export function parseMarkdown(source: string): MdBlock[] {
  const blocks: MdBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;

  const flushParagraph = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  const flushList = () => {
    if (list) blocks.push({ type: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };

  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    if (!line.trim()) {
      flushParagraph();
      flushList();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      blocks.push({ type: 'heading', children: parseInline(heading[1]!) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      flushParagraph();
      const ordered = !!numbered;
      if (list && list.ordered !== ordered) flushList();
      list ??= { ordered, items: [] };
      list.items.push(item[1]!.trim());
      continue;
    }
    // An indented line right after a list item continues that item; otherwise it is paragraph text.
    const current = list as { ordered: boolean; items: string[] } | null;
    if (current && /^\s+/.test(line)) {
      current.items[current.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flushParagraph();
  flushList();
  return blocks;
}

/** Finds `marker` closing a span opened at `from`, with something between them. */
function closing(text: string, marker: string, from: number): number {
  const end = text.indexOf(marker, from);
  return end > from ? end : -1;
}

export function parseInline(text: string): MdInline[] {
  const out: MdInline[] = [];
  let plain = '';
  const push = (node: MdInline) => {
    if (plain) out.push({ type: 'text', text: plain });
    plain = '';
    out.push(node);
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const rest = text.slice(i);

    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!]/.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = closing(text, '`', i + 1);
      if (end > 0) {
        push({ type: 'code', text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (rest.startsWith('**') || rest.startsWith('__')) {
      const marker = rest.slice(0, 2);
      const end = closing(text, marker, i + 2);
      if (end > 0) {
        push({ type: 'strong', children: parseInline(text.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if ((ch === '*' || ch === '_') && text[i + 1] !== ' ') {
      // An underscore inside a word (snake_case) is not emphasis.
      const inWord = ch === '_' && i > 0 && /\w/.test(text[i - 1]!);
      const end = inWord ? -1 : closing(text, ch, i + 1);
      if (end > 0 && text[end - 1] !== ' ') {
        push({ type: 'em', children: parseInline(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
      if (link) {
        const href = safeHref(link[2]!);
        if (href) push({ type: 'link', href, children: parseInline(link[1]!) });
        else plain += link[1];
        i += link[0].length;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  if (plain) out.push({ type: 'text', text: plain });
  return out;
}

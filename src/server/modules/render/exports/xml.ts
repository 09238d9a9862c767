import { XMLBuilder } from 'fast-xml-parser';

/** An element for fast-xml-parser's builder in its ordered form (children keep their order: MLT defines before it uses). */
export interface XmlNode {
  [name: string]: XmlNode[] | Record<string, string | number> | string;
}

/** Characters XML 1.0 cannot hold (control characters of a file name) become '_'. */
// eslint-disable-next-line no-control-regex
const xmlSafe = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '_');

export function el(name: string, attrs: Record<string, string | number | undefined> = {}, children: XmlNode[] = []): XmlNode {
  const a: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) a[k] = typeof v === 'string' ? xmlSafe(v) : v;
  return { [name]: children, ':@': a };
}

export const text = (t: string | number): XmlNode => ({ '#text': typeof t === 'string' ? xmlSafe(t) : String(t) });

const builder = new XMLBuilder({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
});

/** An XML document: the declaration, an optional DOCTYPE line, then `root` (attributes and text escaped by the builder). */
export function xmlDocument(root: XmlNode, doctype?: string): string {
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n${doctype ? `<!DOCTYPE ${doctype}>\n` : ''}`;
  return `${head}${(builder.build([root]) as string).trim()}\n`;
}

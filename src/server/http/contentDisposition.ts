import type { FastifyReply } from 'fastify';

/**
 * A download's Content-Disposition: an ASCII name for old clients (anything else, quotes and
 * backslashes become `_`: header bytes are read as Latin-1, so a name that is not ASCII cannot
 * travel in filename="") and the exact name in RFC 5987 form, where only attr-chars stay unescaped
 * (encodeURIComponent leaves ' ( ) * as they are, which that grammar does not allow).
 */
export function contentDisposition(filename: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** A text file made for this request as a download: its type, never cached, saved under `filename`. */
export function sendAttachment(res: FastifyReply, type: string, filename: string, text: string) {
  return res.type(type).header('cache-control', 'private, no-store').header('content-disposition', contentDisposition(filename)).send(text);
}

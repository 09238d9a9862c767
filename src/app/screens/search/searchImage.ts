import { extensionOf, mediaKindOf } from '../../../contract';

/** Image search input rules (spec sections 4 and 5): images only, never SVG, one at a time, data:image/ URLs. */

const isSvg = (f: { name: string; type: string }) => extensionOf(f.name) === 'svg' || f.type.toLowerCase() === 'image/svg+xml';
export const isSearchableImage = (f: { name: string; type: string }) => mediaKindOf(f.name, f.type) === 'image' && !isSvg(f);

export type ImagePickNotice = 'unsupported' | 'multiple' | null;

/** The image a drop or paste searches with: the first image of the files, and what to tell the user. */
export function pickSearchImage<F extends { name: string; type: string }>(
  files: readonly F[],
): { file: F | null; notice: ImagePickNotice } {
  const images = files.filter(isSearchableImage);
  if (!images.length) return { file: null, notice: files.length ? 'unsupported' : null };
  return { file: images[0]!, notice: images.length > 1 ? 'multiple' : null };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  heic: 'image/heic',
  heif: 'image/heif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

/**
 * A data URL of an image file whose browser-given type may be missing: the type is taken from the
 * extension then, so the URL always starts with data:image/.
 */
export function asImageDataUrl(dataUrl: string, file: { name: string; type: string }): string | null {
  if (isImageDataUrl(dataUrl)) return dataUrl;
  const mime = MIME_BY_EXTENSION[extensionOf(file.name)];
  const comma = dataUrl.indexOf(',');
  if (!mime || !dataUrl.startsWith('data:') || comma < 0 || !dataUrl.slice(0, comma).endsWith(';base64')) return null;
  return `data:${mime};base64,${dataUrl.slice(comma + 1)}`;
}

/** Only data:image/ URLs are sent as an image query (and never SVG). */
export const isImageDataUrl = (value: string | null | undefined): boolean =>
  Boolean(value && /^data:image\/[a-z0-9.+-]+[;,]/i.test(value) && !/^data:image\/svg/i.test(value));

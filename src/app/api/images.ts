import { MSG } from '../../contract';

/**
 * Loads an image by URL as a File (e.g. a picture dragged from a page onto the search bar). A
 * refusal says 'Failed to load image: {status}' (section 8); an answer that is not an image says
 * what type it was, or that it had none.
 */
export async function loadImage(url: string, fetchFn: typeof fetch = (u, i) => fetch(u, i)): Promise<File> {
  let res: Response;
  try {
    res = await fetchFn(url, { credentials: 'same-origin' });
  } catch {
    throw new Error(MSG.imageLoadFailed('network error'));
  }
  if (!res.ok) throw new Error(MSG.imageLoadFailed(res.status));
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type) throw new Error('Missing response content type');
  if (!type.startsWith('image/')) throw new Error(`Unsupported response content type: ${type}`);
  const name = decodeURIComponent(new URL(url, 'http://x').pathname.split('/').pop() || 'image');
  return new File([await res.blob()], name, { type });
}

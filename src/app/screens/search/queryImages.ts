import { clear, createStore, delMany, entries, get, set, type UseStore } from 'idb-keyval';
import { useEffect, useState } from 'react';
import { subscribeKey } from 'valtio/utils';
import { session } from '../../state/session';

/**
 * The images of image searches, kept on this device under a random id that the search address
 * carries (`?image=…`): an image is far too big for an address, and the spec's search request takes
 * it as a data URL, so it is not uploaded anywhere. A reload, Back and Forward, and a copy of the
 * address opened in another tab of this browser find the same image again. IndexedDB (unlike
 * sessionStorage's few megabytes) holds several images: the 20 newest are kept, for a week at most,
 * and signing out forgets them all. Where IndexedDB is unavailable the images live in this page only.
 */

const KEPT = 20;
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;

interface Stored {
  dataUrl: string;
  savedAt: number;
}

/** This page's copies: instant on Back/Forward, and the only copy where IndexedDB fails. */
const memory = new Map<string, string>();

let store: UseStore | null | undefined;
/** Opened on first use (not at import), and null where the browser has no IndexedDB. */
function db(): UseStore | null {
  if (store === undefined) {
    try {
      store = typeof indexedDB === 'undefined' ? null : createStore('clipseek-query-images', 'images');
    } catch {
      store = null;
    }
  }
  return store;
}

/** A new random id, 16 hex digits (crypto.getRandomValues works outside secure contexts too). */
export function newQueryImageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The image of `id` if this page has it already (no wait). */
export const peekQueryImage = (id: string): string | null => memory.get(id) ?? null;

/** Keeps a query image under `id`: at once in this page, then on the device (failures leave the page copy). */
export async function saveQueryImage(id: string, dataUrl: string): Promise<void> {
  memory.set(id, dataUrl);
  while (memory.size > KEPT) memory.delete(memory.keys().next().value!);
  const s = db();
  if (!s) return;
  try {
    await set(id, { dataUrl, savedAt: Date.now() } satisfies Stored, s);
    await prune(s);
  } catch {
    // Quota or a private window: the image still works until the page is closed.
  }
}

/** Drops images beyond the newest KEPT, and any older than MAX_AGE_MS. */
async function prune(s: UseStore) {
  const all = (await entries<string, Stored>(s)).sort((a, b) => b[1].savedAt - a[1].savedAt);
  const now = Date.now();
  const old = all.filter(([, v], i) => i >= KEPT || !(now - v.savedAt < MAX_AGE_MS)).map(([k]) => k);
  if (old.length) await delMany(old, s);
}

/** The image of `id`, from this page or the device; null when it is not (or no longer) kept. */
export async function loadQueryImage(id: string): Promise<string | null> {
  const here = memory.get(id);
  if (here) return here;
  const s = db();
  if (!s) return null;
  try {
    const stored = await get<Stored>(id, s);
    if (!stored || typeof stored.dataUrl !== 'string' || !(Date.now() - stored.savedAt < MAX_AGE_MS)) return null;
    memory.set(id, stored.dataUrl);
    return stored.dataUrl;
  } catch {
    return null;
  }
}

/** Forgets every query image, on the device too. */
export async function forgetQueryImages(): Promise<void> {
  memory.clear();
  const s = db();
  if (s) await clear(s).catch(() => undefined);
}

export type QueryImage =
  | { status: 'none'; dataUrl: null }
  | { status: 'loading'; dataUrl: null }
  | { status: 'ready'; dataUrl: string }
  | { status: 'missing'; dataUrl: null };

/** The query image an address names, loaded from the device when this page does not have it yet. */
export function useQueryImage(id: string | null): QueryImage {
  const [loaded, setLoaded] = useState<{ id: string; dataUrl: string | null } | null>(null);
  const here = id ? peekQueryImage(id) : null;
  useEffect(() => {
    if (!id || peekQueryImage(id)) return;
    let live = true;
    void loadQueryImage(id).then((dataUrl) => {
      if (live) setLoaded({ id, dataUrl });
    });
    return () => {
      live = false;
    };
  }, [id]);
  if (!id) return { status: 'none', dataUrl: null };
  if (here) return { status: 'ready', dataUrl: here };
  if (loaded?.id === id) return loaded.dataUrl ? { status: 'ready', dataUrl: loaded.dataUrl } : { status: 'missing', dataUrl: null };
  return { status: 'loading', dataUrl: null };
}

// The images belong to the account that searched with them.
subscribeKey(session, 'token', (token) => {
  if (!token) void forgetQueryImages();
});

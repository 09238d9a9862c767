import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { RENDER_ASPECTS, type ClipFraming, type RenderAspect } from '../../contract';
import { session } from './session';
import { localStore } from './localStore';

/** A moment's publishing shape: the aspect chosen for it, and the crop window's centre once fixed by the user. */
export interface MomentFraming {
  aspect: RenderAspect;
  /** Absent: the window follows the subject (API.mediaFraming). */
  framing?: ClipFraming;
}

/**
 * Issue 39: the crop chosen for a moment on its dialog's player, by moment id, read by the moment's
 * publish dialog (and the other way round), so a window dragged while watching the moment is the one
 * the MP4 for publishing is cut with. Kept on this device for the signed-in account (local storage):
 * a reload or a later visit finds the window where it was left. Not sent to the server until a
 * render asks for it.
 */
export const momentFraming = proxy<{ byMoment: Record<string, MomentFraming> }>({ byMoment: {} });

/** The moments whose framing this device keeps, the most recently chosen: older ones fall back to following the subject. */
export const MOMENT_FRAMING_KEPT = 500;

const KEY_PREFIX = 'clipseek.momentFraming';
const key = () => `${KEY_PREFIX}.${session.claims?.sub ?? 'anonymous'}`;

const isAspect = (a: unknown): a is RenderAspect => typeof a === 'string' && (RENDER_ASPECTS as readonly string[]).includes(a);
const isFraction = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1;

/** A stored entry as the app uses it, or null when it is not one (written by another version, or by hand). */
function parseEntry(v: unknown): MomentFraming | null {
  if (typeof v !== 'object' || v === null) return null;
  const { aspect, framing } = v as { aspect?: unknown; framing?: { x?: unknown; y?: unknown } };
  if (!isAspect(aspect)) return null;
  if (framing === undefined) return { aspect };
  if (typeof framing !== 'object' || framing === null || !isFraction(framing.x) || !isFraction(framing.y)) return { aspect };
  return { aspect, framing: { x: framing.x, y: framing.y } };
}

/** (Re)reads the signed-in account's framings kept on this device; anything unreadable is dropped. */
export function loadMomentFraming() {
  const byMoment: Record<string, MomentFraming> = {};
  try {
    const raw = JSON.parse(localStore()?.getItem(key()) ?? '{}') as unknown;
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw))
      for (const [id, v] of Object.entries(raw)) {
        const entry = parseEntry(v);
        if (entry) byMoment[id] = entry;
      }
  } catch {
    // Nothing kept, or storage is off: every moment starts following its subject.
  }
  momentFraming.byMoment = byMoment;
}

/** Writes the framings, the latest MOMENT_FRAMING_KEPT (a moment chosen again moves to the end). */
function persist() {
  try {
    const store = localStore();
    if (!store) return;
    const entries = Object.entries(momentFraming.byMoment).slice(-MOMENT_FRAMING_KEPT);
    if (entries.length) store.setItem(key(), JSON.stringify(Object.fromEntries(entries)));
    else store.removeItem(key());
  } catch (e) {
    // Full or refused: the choice still holds in this tab.
    console.warn('Could not keep the moment framing on this device', e);
  }
}

function choose(momentId: string, value: MomentFraming) {
  // Deleted first, so that the moment is the newest entry (insertion order), kept over older ones.
  delete momentFraming.byMoment[momentId];
  momentFraming.byMoment[momentId] = value;
  persist();
}

export function setMomentAspect(momentId: string, aspect: RenderAspect): void {
  const was = momentFraming.byMoment[momentId];
  // A fixed centre stays with its moment across shapes (the window is kept inside the picture).
  choose(momentId, { aspect, ...(was?.framing ? { framing: was.framing } : {}) });
}

export function setMomentCrop(momentId: string, aspect: RenderAspect, framing: ClipFraming | undefined): void {
  choose(momentId, { aspect, ...(framing ? { framing: { x: framing.x, y: framing.y } } : {}) });
}

let loadedFor: string | null = session.claims?.sub ?? null;
loadMomentFraming();
// Framings belong to the account that chose them: read at once (in sync), so that no choice made
// right after a switch lands in the other account's.
subscribeKey(
  session,
  'claims',
  (claims) => {
    // The same account with a refreshed token keeps what it has.
    if (claims?.sub === loadedFor) return;
    loadedFor = claims?.sub ?? null;
    loadMomentFraming();
  },
  true,
);

import { proxy } from 'valtio';
import type { ClipFraming, RenderAspect } from '../../contract';

/** A moment's publishing shape: the aspect chosen for it, and the crop window's centre once fixed by the user. */
export interface MomentFraming {
  aspect: RenderAspect;
  /** Absent: the window follows the subject (API.mediaFraming). */
  framing?: ClipFraming;
}

/**
 * Issue 39: the crop chosen for a moment on its dialog's player, by moment id, read by the moment's
 * publish dialog (and the other way round), so a window dragged while watching the moment is the one
 * the MP4 for publishing is cut with. Kept for the tab's life, as the merge editor keeps a clip's
 * framing; not sent to the server until a render asks for it.
 */
export const momentFraming = proxy<{ byMoment: Record<string, MomentFraming> }>({ byMoment: {} });

export function setMomentAspect(momentId: string, aspect: RenderAspect): void {
  const was = momentFraming.byMoment[momentId];
  // A fixed centre stays with its moment across shapes (the window is kept inside the picture).
  momentFraming.byMoment[momentId] = { aspect, ...(was?.framing ? { framing: was.framing } : {}) };
}

export function setMomentCrop(momentId: string, aspect: RenderAspect, framing: ClipFraming | undefined): void {
  momentFraming.byMoment[momentId] = { aspect, ...(framing ? { framing: { x: framing.x, y: framing.y } } : {}) };
}

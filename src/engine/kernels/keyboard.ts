/**
 * The timeline's keyboard map (spec section 5 plus J/K/L, I/O, Home/End): a key event to a
 * command, or null when the timeline must leave it alone.
 */
import { ARROW_SEEK_SECONDS } from '../../contract';

export type KeyCommand =
  | { type: 'seekBy'; seconds: number }
  | { type: 'seekTo'; to: 'start' | 'end' }
  | { type: 'togglePlay' }
  | { type: 'stepFrames'; frames: number }
  | { type: 'shuttle'; direction: -1 | 0 | 1 }
  | { type: 'markIn' }
  | { type: 'markOut' };

/** What the map needs of a key event (a KeyboardEvent fits). */
export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  isComposing?: boolean;
  target?: unknown;
}

interface ElementLike {
  tagName?: string;
  isContentEditable?: boolean;
  getAttribute?(name: string): string | null;
}

const TYPING_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);

/**
 * True when the target takes the keys itself: text fields, selects, editable content, and widgets
 * (sliders, spin buttons) whose arrows would otherwise move the playhead as well.
 */
export function isTypingTarget(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as ElementLike;
  const tag = typeof el.tagName === 'string' ? el.tagName.toUpperCase() : '';
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (el.isContentEditable === true) return true;
  const role = typeof el.getAttribute === 'function' ? el.getAttribute('role') : null;
  return role !== null && TYPING_ROLES.has(role);
}

function isButton(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as ElementLike;
  const tag = typeof el.tagName === 'string' ? el.tagName.toUpperCase() : '';
  return tag === 'BUTTON' || (typeof el.getAttribute === 'function' && el.getAttribute('role') === 'button');
}

/** The command for a key event, or null (typing, modifier chords, unknown keys). */
export function keyCommand(e: KeyLike): KeyCommand | null {
  if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (isTypingTarget(e.target)) return null;
  const shift = e.shiftKey === true;
  switch (e.key) {
    case 'ArrowLeft':
      return { type: 'seekBy', seconds: shift ? -1 : -ARROW_SEEK_SECONDS };
    case 'ArrowRight':
      return { type: 'seekBy', seconds: shift ? 1 : ARROW_SEEK_SECONDS };
    case ' ':
    case 'Spacebar':
      // Space on a focused button presses the button; it must not also toggle playback.
      return isButton(e.target) ? null : { type: 'togglePlay' };
    case ',':
    case '<':
      return { type: 'stepFrames', frames: -1 };
    case '.':
    case '>':
      return { type: 'stepFrames', frames: 1 };
    case 'Home':
      return { type: 'seekTo', to: 'start' };
    case 'End':
      return { type: 'seekTo', to: 'end' };
    default:
      break;
  }
  switch (e.key.length === 1 ? e.key.toLowerCase() : '') {
    case 'j':
      return { type: 'shuttle', direction: -1 };
    case 'k':
      return { type: 'shuttle', direction: 0 };
    case 'l':
      return { type: 'shuttle', direction: 1 };
    case 'i':
      return { type: 'markIn' };
    case 'o':
      return { type: 'markOut' };
    default:
      return null;
  }
}

/** Shuttle rate after J (-1), K (0) or L (1): L from stopped or reverse plays at 1x, L again doubles up to 8x; J mirrors it. */
export function nextShuttle(current: number, direction: -1 | 0 | 1, max = 8): number {
  if (direction === 0) return 0;
  if (Math.sign(current) !== direction) return direction;
  return direction * Math.min(max, Math.abs(current) * 2);
}

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
  /** An input's type. */
  type?: string;
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

const tagOf = (el: ElementLike) => (typeof el.tagName === 'string' ? el.tagName.toUpperCase() : '');
const roleOf = (el: ElementLike) => (typeof el.getAttribute === 'function' ? el.getAttribute('role') : null);

/** Inputs that are no text field: Space presses them (or, for a range, does nothing). */
const NON_TEXT_INPUTS = new Set(['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'color', 'range']);
const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
/** Controls Space presses (Radix's checkboxes, radios, tabs and menu items are buttons or have these roles). */
const PRESSED_ROLES = new Set(['button', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option']);

/** A field Space is typed into (a select's type-ahead takes it too). */
function isTextField(el: ElementLike): boolean {
  const tag = tagOf(el);
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has(String(el.type ?? 'text').toLowerCase());
  if (tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable === true) return true;
  const role = roleOf(el);
  return role !== null && TEXT_ROLES.has(role);
}

function isPressable(el: ElementLike): boolean {
  const tag = tagOf(el);
  if (tag === 'BUTTON') return true;
  if (tag === 'INPUT') return String(el.type ?? '').toLowerCase() !== 'range';
  const role = roleOf(el);
  return role !== null && PRESSED_ROLES.has(role);
}

/**
 * Whether Space belongs to the focused element rather than to playback: a text field types it, and
 * a control the user reached with the keyboard (`focusedByKeyboard`: Tab) presses it, as always. A
 * control that only took focus from a click does not keep it, as in players and editors: otherwise
 * one click on Close made the next Space close the moment dialog, and one on Zoom in made every Space
 * zoom again.
 */
export function takesSpace(target: unknown, focusedByKeyboard: boolean): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as ElementLike;
  return isTextField(el) || (isPressable(el) && focusedByKeyboard);
}

/**
 * The command for a key event, or null (typing, modifier chords, unknown keys). `focusedByKeyboard`
 * says how focus reached the target (`core/focusOrigin`); without it a control keeps its Space.
 */
export function keyCommand(e: KeyLike, focusedByKeyboard = true): KeyCommand | null {
  if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return null;
  // Space plays and pauses from anywhere but a text field or a control reached by keyboard (a slider
  // takes the arrows, not Space).
  if (e.key === ' ' || e.key === 'Spacebar') return takesSpace(e.target, focusedByKeyboard) ? null : { type: 'togglePlay' };
  if (isTypingTarget(e.target)) return null;
  const shift = e.shiftKey === true;
  switch (e.key) {
    case 'ArrowLeft':
      return { type: 'seekBy', seconds: shift ? -1 : -ARROW_SEEK_SECONDS };
    case 'ArrowRight':
      return { type: 'seekBy', seconds: shift ? 1 : ARROW_SEEK_SECONDS };
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

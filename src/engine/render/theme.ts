/** Colours of the timeline, matching the app's CSS variables (src/app/styles/global.css). */
export const COLORS = {
  background: 0x141821, // --surface
  ruler: 0x1a1f2a, // --surface-2
  placeholder: 0x222835, // --surface-3
  tileEdge: 0x0a0c11, // --bg
  tickMajor: 0x6b7386, // --text-faint
  tickMinor: 0x333b4b, // --border-strong
  label: 0x9aa3b5, // --text-muted
  accent: 0x7c5cff, // --accent
  accentHover: 0xb4a4ff, // --accent-text
  shade: 0x000000,
  playhead: 0xff5d6c, // --danger
  grip: 0x0a0c11,
} as const;

/** Alpha of the shade over media outside the moment range. */
export const SHADE_ALPHA = 0.55;
/** Width of a range handle bar, px; it sits outside the range so it never hides the first frame. */
export const HANDLE_WIDTH = 10;
/** Extra px around a handle that still grab it. */
export const HANDLE_SLOP = 4;
/** Ruler label font (installed once as a bitmap font: digits and colons only). */
export const LABEL_FONT = { name: 'clipseek-timeline-ruler', family: 'monospace', size: 10, charWidth: 6.1 } as const;

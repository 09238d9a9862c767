import {
  CAPTION_MAX_LINE_CHARS,
  CAPTION_MAX_LINES,
  CAPTION_MAX_SECONDS,
  CAPTION_MIN_SECONDS,
  srtTime,
  type CaptionStyle,
} from '../../../contract';

/**
 * Captions of a compilation (issue 39): the words said in each clip, re-timed to the compilation's
 * clock and grouped into cues by subtitle conventions (contract CAPTION_*), and the SRT, WebVTT and
 * ASS (burned in by libass) written from them. Pure: the service reads the transcript, the renderer
 * burns and muxes the files.
 */

/** A word said, with its times (seconds). */
export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** A transcript segment as stored: its text (the correction, when there is one) and the recogniser's words. */
export interface CaptionSegment {
  start: number;
  end: number;
  text: string;
  /** The recogniser's words ({word, start, end}); they keep their times when a correction keeps them. */
  words?: unknown;
}

/** One clip of a compilation: its range of the media and the media's transcript. */
export interface CaptionClip {
  start: number;
  end: number;
  segments: readonly CaptionSegment[];
}

/** A cue on the compilation's clock; `words` are its words (same clock) for word-by-word styles. */
export interface Cue {
  start: number;
  end: number;
  lines: string[];
  words: TimedWord[];
  /** Where the cue's clip ends on the compilation's clock: nothing of it may cross. */
  clipEnd: number;
}

/** A silence this long between two words ends a cue (a new thought; the screen goes blank). */
export const CAPTION_PAUSE_BREAK = 1.2;
/** A silence this long is a good place to break a cue or a line. */
const SHORT_PAUSE = 0.3;

const key = (w: string) =>
  w
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

function recognised(words: unknown): TimedWord[] {
  if (!Array.isArray(words)) return [];
  return words
    .filter(
      (w): w is TimedWord =>
        !!w &&
        typeof (w as TimedWord).word === 'string' &&
        Number.isFinite((w as TimedWord).start) &&
        Number.isFinite((w as TimedWord).end) &&
        (w as TimedWord).end >= (w as TimedWord).start,
    )
    .map((w) => ({ word: w.word, start: w.start, end: w.end }))
    .sort((a, b) => a.start - b.start);
}

/** Spreads `tokens` over [start, end] in proportion to their length (a space counts as one). */
function spread(tokens: string[], start: number, end: number): TimedWord[] {
  const weights = tokens.map((t) => [...t].length + 1);
  const total = weights.reduce((s, w) => s + w, 0);
  const span = Math.max(0, end - start);
  let at = start;
  return tokens.map((word, i) => {
    const d = (span * weights[i]!) / total;
    const w = { word, start: at, end: at + d };
    at += d;
    return w;
  });
}

/**
 * The words of a segment as they read now, with times. An uncorrected segment is its recogniser's
 * words (written as the text writes them); a corrected one keeps the time of every word it shares
 * with what was heard, in order (longest common subsequence, case and punctuation aside), and the
 * words typed in their place share the time of the words they replace (or of the gap where they
 * go), by length. A segment without word times spreads its text over its span.
 */
export function segmentWords(seg: CaptionSegment): TimedWord[] {
  const tokens = seg.text.split(/\s+/).filter(Boolean);
  if (!tokens.length) return [];
  const heard = recognised(seg.words).filter((w) => key(w.word));
  if (!heard.length) return spread(tokens, seg.start, seg.end);
  const a = tokens.map(key);
  const b = heard.map((w) => key(w.word));
  // LCS table from the end, so the alignment reads forwards.
  const n = a.length;
  const m = b.length;
  const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) L[i]![j] = a[i] && a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const pairs: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i] && a[i] === b[j]) pairs.push([i++, j++]);
    else if (L[i + 1]![j]! >= L[i]![j + 1]!) i++;
    else j++;
  }
  const out: TimedWord[] = [];
  let ti = 0;
  let hj = 0;
  let lastEnd = seg.start;
  for (const [pi, pj] of [...pairs, [n, m] as [number, number]]) {
    if (pi > ti) {
      // Typed words between two kept ones: over the heard words they replace, else over the gap.
      const replaced = heard.slice(hj, pj);
      const from = replaced.length ? Math.max(lastEnd, replaced[0]!.start) : lastEnd;
      const next = pj < m ? heard[pj]!.start : Math.max(seg.end, lastEnd);
      const to = replaced.length ? Math.min(next, Math.max(from, replaced[replaced.length - 1]!.end)) : next;
      out.push(...spread(tokens.slice(ti, pi), from, Math.max(from, to)));
    }
    if (pi < n) {
      const h = heard[pj]!;
      out.push({ word: tokens[pi]!, start: h.start, end: h.end });
      lastEnd = h.end;
    }
    ti = pi + 1;
    hj = pj + 1;
  }
  return out;
}

/** The chars of a line of these words. */
const lineLength = (words: readonly TimedWord[]) => words.reduce((s, w, i) => s + [...w.word].length + (i ? 1 : 0), 0);

const endsSentence = (w: string) => /[.!?…]["'”’)\]]*$/.test(w);
const endsClause = (w: string) => /[,;:—–-]["'”’)\]]*$/.test(w);

/** How good a place the gap after words[i] is to break (higher is better). */
function breakScore(words: readonly TimedWord[], i: number): number {
  const w = words[i]!;
  const next = words[i + 1];
  const pause = next ? next.start - w.end : 0;
  return (endsSentence(w.word) ? 3 : endsClause(w.word) ? 2 : 0) + (pause >= SHORT_PAUSE ? 2 : 0) + Math.min(1, pause);
}

/**
 * The cue's words as at most `maxLines` lines of at most `maxChars` characters, lines balanced and
 * broken after punctuation or a pause where that costs little balance; null when they do not fit
 * (a single word longer than a line is a line of its own).
 */
export function breakLines(words: readonly TimedWord[], maxChars = CAPTION_MAX_LINE_CHARS, maxLines = CAPTION_MAX_LINES): string[] | null {
  const text = (ws: readonly TimedWord[]) => ws.map((w) => w.word).join(' ');
  if (!words.length) return [];
  if (lineLength(words) <= maxChars || words.length === 1) return [text(words)];
  if (maxLines < 2) return null;
  let best: { at: number; cost: number } | null = null;
  for (let i = 0; i < words.length - 1; i++) {
    const first = lineLength(words.slice(0, i + 1));
    const rest = words.slice(i + 1);
    const restLines = maxLines === 2 ? (lineLength(rest) <= maxChars || rest.length === 1 ? 1 : null) : null;
    if (first > maxChars && i > 0) break;
    if (restLines === null && maxLines === 2) continue;
    // Balance first (a bottom-heavy pyramid reads best: the second line a little longer), then punctuation.
    const cost = Math.abs(lineLength(rest) - first) + (lineLength(rest) < first ? 2 : 0) - 6 * breakScore(words, i);
    if (!best || cost < best.cost) best = { at: i + 1, cost };
  }
  if (!best) return null;
  return [text(words.slice(0, best.at)), text(words.slice(best.at))];
}

/** Groups one clip's words (already on the compilation's clock) into cues. */
function groupCues(words: TimedWord[], clipEnd: number, maxChars: number, maxLines: number): Cue[] {
  const cues: Cue[] = [];
  let i = 0;
  while (i < words.length) {
    // The longest run from i that fits the lines and the time, stopping at a long pause.
    let j = i + 1;
    while (
      j < words.length &&
      words[j]!.start - words[j - 1]!.end < CAPTION_PAUSE_BREAK &&
      words[j]!.end - words[i]!.start <= CAPTION_MAX_SECONDS &&
      breakLines(words.slice(i, j + 1), maxChars, maxLines)
    )
      j++;
    // Cut short at the best break in its second half when the run had to stop for room or time.
    let end = j;
    const stoppedByRoom = j < words.length && words[j]!.start - words[j - 1]!.end < CAPTION_PAUSE_BREAK;
    if (stoppedByRoom && j - i > 2) {
      let bestAt = -1;
      let bestScore = 0;
      for (let k = i + Math.ceil((j - i) / 2) - 1; k < j - 1; k++) {
        const s = breakScore(words, k);
        if (s >= bestScore && s > 0) [bestAt, bestScore] = [k, s];
      }
      if (bestAt >= 0) end = bestAt + 1;
    }
    const cueWords = words.slice(i, end);
    cues.push({
      start: cueWords[0]!.start,
      end: cueWords[cueWords.length - 1]!.end,
      lines: breakLines(cueWords, maxChars, maxLines) ?? [cueWords.map((w) => w.word).join(' ')],
      words: cueWords,
      clipEnd,
    });
    i = end;
  }
  // Minimum and maximum time on screen, never into the next cue nor past the clip's end.
  cues.forEach((c, k) => {
    const limit = Math.min(cues[k + 1]?.start ?? Infinity, clipEnd);
    c.end = Math.min(Math.max(c.end, c.start + CAPTION_MIN_SECONDS), limit, c.start + CAPTION_MAX_SECONDS);
  });
  return cues.filter((c) => c.end > c.start);
}

/**
 * The compilation's cues: each clip's words (a word belongs to a clip when most of it is inside the
 * range; its times are clipped to it), moved to the compilation's clock (the clips one after
 * another), grouped clip by clip so that no cue crosses a cut.
 */
export function compilationCues(clips: readonly CaptionClip[], opts: { maxChars?: number; maxLines?: number } = {}): Cue[] {
  const cues: Cue[] = [];
  let offset = 0;
  for (const clip of clips) {
    const length = clip.end - clip.start;
    const words = [...clip.segments]
      .sort((x, y) => x.start - y.start)
      .flatMap(segmentWords)
      .filter((w) => {
        const mid = (w.start + w.end) / 2;
        return mid >= clip.start && mid < clip.end;
      })
      .map((w) => ({
        word: w.word,
        start: offset + Math.max(0, w.start - clip.start),
        end: offset + Math.min(length, Math.max(0, w.end - clip.start)),
      }));
    cues.push(...groupCues(words, offset + length, opts.maxChars ?? CAPTION_MAX_LINE_CHARS, opts.maxLines ?? CAPTION_MAX_LINES));
    offset += length;
  }
  return cues;
}

/** SubRip. */
export function cuesToSrt(cues: readonly Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.lines.join('\n')}\n`).join('\n');
}

const vttTime = (s: number) => srtTime(s).replace(',', '.');
/** WebVTT's own escapes: its text may not hold '&', '<' or '-->' as such. */
const vttText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** WebVTT. */
export function cuesToVtt(cues: readonly Cue[]): string {
  return `WEBVTT\n\n${cues.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.lines.map(vttText).join('\n')}\n`).join('\n')}`;
}

/** ASS time H:MM:SS.cc (centiseconds, floored so that an event never starts late into the next frame's cue). */
function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor(cs / 6000) % 60;
  const s = Math.floor(cs / 100) % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/**
 * Text as ASS shows it literally: a backslash is followed by a word joiner (so '\N', '\h' stay
 * text), braces are escaped (libass reads '\{' and '\}' as the characters).
 */
export function assEscape(text: string): string {
  return text.replace(/\\/g, '\\\u2060').replace(/[{}]/g, (b) => `\\${b}`);
}

/** The font libass draws captions with (Debian fonts-dejavu-core, found through the renderer's fontsdir). */
export const CAPTION_FONT = 'DejaVu Sans';
/**
 * DejaVu Sans Bold's advance a character of English text, in ems, with room to spare (a lower-case
 * sentence measures ~0.51 at 36 px): a full line fits the picture's width.
 */
const EM_PER_CHAR = 0.56;

/** ASS colour &HAABBGGRR from an RGB hex and an opacity (0..1). */
const colour = (rgb: string, opacity = 1) =>
  `&H${Math.round((1 - opacity) * 255)
    .toString(16)
    .padStart(2, '0')
    .toUpperCase()}${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}`.toUpperCase();

/** An override tag's colour &HBBGGRR& from an RGB hex. */
const tagColour = (rgb: string) => `&H${rgb.slice(4, 6)}${rgb.slice(2, 4)}${rgb.slice(0, 2)}&`.toUpperCase();

/**
 * Bottom captions stay this share of the height above the bottom: the title-safe area, and clear of
 * the watermark in the corner below (adapters/media/render.ts: a 16th of the picture's short side
 * high, a 30th from the bottom).
 */
const TITLE_SAFE = 0.1;

/** Sizes of a style for a picture, in its pixels. */
export function captionLayout(style: CaptionStyle, width: number, height: number) {
  // Font size from the picture's height, never so big that a full line leaves the picture's width.
  const fit = (share: number, chars: number) => Math.max(8, Math.floor(Math.min(height * share, (width * 0.92) / (chars * EM_PER_CHAR))));
  switch (style) {
    case 'bar': {
      const size = fit(0.05, CAPTION_MAX_LINE_CHARS);
      return { size, lineChars: CAPTION_MAX_LINE_CHARS, margin: Math.round(height * TITLE_SAFE), pad: Math.round(size * 0.35) };
    }
    case 'subtitle': {
      const size = fit(0.055, CAPTION_MAX_LINE_CHARS);
      return { size, lineChars: CAPTION_MAX_LINE_CHARS, margin: Math.round(height * TITLE_SAFE), pad: 0 };
    }
    case 'words': {
      // Short lines of big words: at most WORDS_LINE_CHARS a line, sized for the narrower side.
      const size = fit(0.075, WORDS_LINE_CHARS);
      return { size, lineChars: WORDS_LINE_CHARS, margin: 0, pad: 0 };
    }
  }
}

/** The `words` style's line length: a few big words at a time. */
export const WORDS_LINE_CHARS = 16;

/**
 * One ASS event: `layer` orders what is drawn at once (the bar under its text); `marginV`, when set,
 * replaces the style's vertical margin (of lines placed by their style, not by \\pos).
 */
interface AssEvent {
  layer: number;
  start: number;
  end: number;
  text: string;
  marginV?: number;
}

/** Line height of DejaVu Sans (ascent + descent, 1.164 em) with room to spare, in ems. */
const LINE_EMS = 1.25;

/**
 * The rows of a `width`x`height` picture a style's captions can cover, `top` and `height` even
 * (whole chroma rows): the captions' lines at most (CAPTION_MAX_LINES), their outline and shadow,
 * with room to spare. Bottom styles' rows reach the picture's bottom, so that their bottom margin
 * places them alike on the band and on the picture. A test draws each style both ways.
 */
export function captionBand(style: CaptionStyle, width: number, height: number): { top: number; height: number } {
  const L = captionLayout(style, width, height);
  const spare = Math.ceil(L.size * 0.3);
  const block = CAPTION_MAX_LINES * L.size * LINE_EMS;
  let top: number;
  let bottom = height;
  if (style === 'words') {
    const half = block / 2 + wordsOutline(L.size) + spare;
    top = wordsCentre(height) - half;
    bottom = wordsCentre(height) + half;
  } else if (style === 'bar') top = height - L.margin - (block + 2 * L.pad) - spare;
  else top = height - L.margin - block - 3 * subtitleOutline(L.size) - spare;
  const t = Math.max(0, Math.floor(top / 2) * 2);
  const b = Math.min(height - (height % 2), Math.ceil(bottom / 2) * 2);
  return { top: t, height: b - t };
}

const wordsOutline = (size: number) => Math.max(2, Math.round(size / 10));
const subtitleOutline = (size: number) => Math.max(1, Math.round(size / 14));
/** Where the `words` style centres its lines: a little below the middle. */
const wordsCentre = (height: number) => Math.round(height * 0.68);

/**
 * The events of the cues on a `width`x`height` picture, their positions `top` rows higher (drawn
 * on the band from `top` down: captionStates), lines placed by the style's bottom margin `lift` rows
 * higher still.
 */
function assEvents(cues: readonly Cue[], style: CaptionStyle, width: number, height: number, top = 0, lift = 0): AssEvent[] {
  const L = captionLayout(style, width, height);
  const marginV = (style === 'bar' ? L.margin + L.pad : L.margin) + lift;
  const events: AssEvent[] = [];
  const dialogue = (start: number, end: number, text: string, layer = 1) => events.push({ layer, start, end, text });
  if (style === 'words') {
    const HIGHLIGHT = tagColour('FFD400');
    const WHITE = tagColour('FFFFFF');
    for (const c of cues) {
      // The cue in short chunks, each on screen from its first word to the next chunk (or the cue's end).
      for (const chunk of chunks(c.words, L.lineChars)) {
        const chunkEnd = Math.min(chunk.end, c.end);
        chunk.words.forEach((w, k) => {
          const from = k === 0 ? chunk.start : w.start;
          const to = k + 1 < chunk.words.length ? chunk.words[k + 1]!.start : chunkEnd;
          if (!(to > from)) return;
          let n = 0;
          const text = chunk.lines
            .map((line) =>
              line.map((x) => (n++ === k ? `{\\c${HIGHLIGHT}}${assEscape(x.word)}{\\c${WHITE}}` : assEscape(x.word))).join(' '),
            )
            .join('\\N');
          // A word longer than a line is drawn smaller, so that it stays inside the picture.
          const longest = Math.max(...chunk.lines.map(lineLength));
          const shrink = longest > L.lineChars ? `\\fs${Math.floor((L.size * L.lineChars) / longest)}` : '';
          dialogue(from, to, `{\\pos(${Math.round(width / 2)},${wordsCentre(height) - top})${shrink}}${text}`);
        });
      }
    }
  } else {
    for (const c of cues) {
      const text = c.lines.map(assEscape).join('\\N');
      if (style === 'bar') {
        // The bar: a drawn rectangle across the picture, tall enough for the cue's lines.
        const barHeight = Math.round(c.lines.length * L.size * 1.2 + 2 * L.pad);
        const barTop = height - L.margin - barHeight;
        dialogue(
          c.start,
          c.end,
          `{\\an7\\pos(0,${barTop - top})\\p1\\bord0\\shad0\\1c${tagColour('101014')}\\1a&H38&}m 0 0 l ${width} 0 ${width} ${barHeight} 0 ${barHeight}{\\p0}`,
          0,
        );
      }
      events.push({ layer: 1, start: c.start, end: c.end, text, ...(lift && { marginV }) });
    }
  }
  return events;
}

/** An ASS script of `events` on a `width`x`playHeight` canvas, in the style's sizes for a `width`x`height` picture. */
function assScript(style: CaptionStyle, width: number, height: number, playHeight: number, events: readonly AssEvent[]): string {
  const L = captionLayout(style, width, height);
  const outline = subtitleOutline(L.size);
  // The big words have a thick outline and no shadow: a shadow looked the same on them and its layer
  // cost ffmpeg's ass filter 0.7 s of CPU a minute (of 2.5 s) on a 720x1280 short.
  const styles = {
    bar: `Style: Caption,${CAPTION_FONT},${L.size},${colour('FFFFFF')},${colour('FFFFFF')},${colour('000000')},${colour('000000', 0)},-1,0,0,0,100,100,0,0,1,0,0,2,${L.margin},${L.margin},${L.margin + L.pad},1`,
    subtitle: `Style: Caption,${CAPTION_FONT},${L.size},${colour('FFFFFF')},${colour('FFFFFF')},${colour('000000')},${colour('000000', 0.6)},0,0,0,0,100,100,0,0,1,${outline},${Math.max(1, Math.round(outline / 2))},2,${L.margin},${L.margin},${L.margin},1`,
    words: `Style: Caption,${CAPTION_FONT},${L.size},${colour('FFFFFF')},${colour('FFFFFF')},${colour('000000')},${colour('000000', 0.6)},-1,0,0,0,100,100,0,0,1,${wordsOutline(L.size)},0,5,0,0,0,1`,
  };
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${playHeight}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: TV.709',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    styles[style],
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events.map((e) => `Dialogue: ${e.layer},${assTime(e.start)},${assTime(e.end)},Caption,,0,0,${e.marginV ?? 0},,${e.text}`),
    '',
  ].join('\n');
}

/**
 * ASS for libass of the cues on a `width`x`height` picture. `bar`: the lines on a dark translucent
 * bar across the bottom; `subtitle`: white outlined lines at the bottom; `words`: a few big words
 * at a time centred a little below the middle, the one being said highlighted (an event per word).
 */
export function cuesToAss(cues: readonly Cue[], style: CaptionStyle, width: number, height: number): string {
  return assScript(style, width, height, height, assEvents(cues, style, width, height));
}

/** Burned-in captions as states (captionStates). */
export interface CaptionStates {
  /** The rows of the picture the captions can cover (captionBand). */
  band: { top: number; height: number };
  /**
   * ASS of the captions on a canvas of the band's width and twice its height, drawn twice: in the
   * upper half as on the band (their positions moved up by its top), and again in the lower half
   * (the renderer draws them over two backgrounds at once: captionPictures in adapters/media/render.ts).
   */
  ass: string;
  /** How long each state lasts, one after another from the compilation's start; after the last, nothing is shown. */
  durations: number[];
}

/**
 * The burned-in captions as the few pictures they are (issue 39's bench). Between two moments where
 * an event starts or ends, what is drawn does not change: that is one state. The renderer has libass
 * draw each state once, on the captions' band (captionBand) rather than on every frame of the picture,
 * and lays it over the picture for its duration (ffmpeg's overlay, SIMD and sliced over the cores,
 * where the ass filter blended every frame on one thread).
 */
export function captionStates(cues: readonly Cue[], style: CaptionStyle, width: number, height: number): CaptionStates {
  const band = captionBand(style, width, height);
  const h = band.height;
  // Every state twice, one above the other (see CaptionStates.ass): the upper copy's lines placed by
  // the bottom margin are lifted by the band's height, the lower copy's positions moved down by it.
  const events = assEvents(cues, style, width, height, band.top, h);
  const lower = assEvents(cues, style, width, height, band.top - h);
  // On the script's clock: whole centiseconds (assTime), as libass shows them.
  const cs = (t: number) => Math.max(0, Math.round(t * 100));
  const times = [...new Set([0, ...events.flatMap((e) => [cs(e.start), cs(e.end)])])].sort((x, y) => x - y);
  const durations = times.slice(1).map((t, i) => (t - times[i]!) / 100);
  return { band, ass: assScript(style, width, height, 2 * h, [...events, ...lower]), durations };
}

/** A cue's words as short chunks of at most two lines of `lineChars`, for the `words` style. */
function chunks(words: readonly TimedWord[], lineChars: number) {
  const out: Array<{ start: number; end: number; words: TimedWord[]; lines: TimedWord[][] }> = [];
  let i = 0;
  while (i < words.length) {
    let j = i + 1;
    while (j < words.length && breakLines(words.slice(i, j + 1), lineChars, 2) && !endsSentence(words[j - 1]!.word)) j++;
    const ws = words.slice(i, j);
    const lines = splitAt(ws, breakLines(ws, lineChars, 2) ?? [ws.map((w) => w.word).join(' ')]);
    out.push({ start: ws[0]!.start, end: words[j]?.start ?? Infinity, words: ws, lines });
    i = j;
  }
  return out;
}

/** The words of each line of `lines` (made from `words` by breakLines). */
function splitAt(words: TimedWord[], lines: string[]): TimedWord[][] {
  const out: TimedWord[][] = [];
  let k = 0;
  for (const line of lines) {
    const n = line.split(' ').length;
    out.push(words.slice(k, k + n));
    k += n;
  }
  return out;
}

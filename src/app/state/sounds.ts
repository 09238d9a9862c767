import { preferences } from './preferences';

/**
 * The `enableSounds` preference (libraries spec section 3) made audible: a short chime, made with
 * WebAudio (no file to fetch), when an upload batch or an indexing finishes. Off, nothing sounds.
 */
export type DoneSound = 'upload' | 'indexed';

/** Notes of each chime (Hz), rising: the upload's two, indexing's three. */
const NOTES: Record<DoneSound, number[]> = { upload: [659.25, 880], indexed: [523.25, 659.25, 783.99] };
const NOTE_SECONDS = 0.12;
const VOLUME = 0.08;

let context: AudioContext | null = null;

/** Plays the chime unless sounds are off (or the browser has no WebAudio); says whether it did. */
export function playDoneSound(kind: DoneSound): boolean {
  if (!preferences.enableSounds) return false;
  const Ctor = window.AudioContext as typeof AudioContext | undefined;
  if (!Ctor) return false;
  try {
    context ??= new Ctor();
    // Created before any click, a context starts suspended; uploads start from a click or a drop,
    // so by then the page may play.
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime + 0.01;
    NOTES[kind].forEach((hz, i) => {
      const at = start + i * NOTE_SECONDS;
      const osc = context!.createOscillator();
      const gain = context!.createGain();
      osc.type = 'sine';
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(VOLUME, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_SECONDS * 1.8);
      osc.connect(gain).connect(context!.destination);
      osc.start(at);
      osc.stop(at + NOTE_SECONDS * 2);
    });
    return true;
  } catch {
    return false;
  }
}

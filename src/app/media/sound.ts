import { useSyncExternalStore } from 'react';
import { DEFAULT_SOUND, toggledMute, withVolume, type SoundState } from './playerRules';

/**
 * The player's volume and mute, remembered for the browser session and shared by every open player
 * (the trim dialog's player opens over the moment dialog's). A tiny external store rather than a
 * valtio proxy: it is a player setting, not app state.
 */
let sound: SoundState = DEFAULT_SOUND;
const listeners = new Set<() => void>();

function set(next: SoundState) {
  sound = next;
  listeners.forEach((l) => l());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

export function useSound() {
  return useSyncExternalStore(subscribe, () => sound);
}

export const setVolume = (volume: number) => set(withVolume(sound, volume));
export const toggleMute = () => set(toggledMute(sound));

import { useEffect } from 'react';
import { VOLUME, volumeToGain } from '../../contract';
import { IconButton } from '../ui/Button';
import { Slider } from '../ui/Slider';
import { IconMuted, IconVolume } from '../ui/icons';
import { setVolume, toggleMute, useSound } from './sound';

/** Mute button and volume slider (0..100, spec section 9) of the session's player sound. */
export function VolumeControl() {
  const sound = useSound();
  return (
    <div className="volume-control">
      <IconButton label={sound.muted ? 'Unmute' : 'Mute'} className="moment-player__button" onClick={toggleMute}>
        {sound.muted ? <IconMuted size={18} /> : <IconVolume size={18} />}
      </IconButton>
      <Slider
        className="volume-control__slider"
        value={sound.volume}
        onValueChange={setVolume}
        min={VOLUME.min}
        max={VOLUME.max}
        label="Volume"
        valueText={`${sound.volume}%`}
      />
    </div>
  );
}

/** Plays `video` at the session's volume, heard through the quadratic curve, and mute. */
export function useSessionSound(video: HTMLVideoElement | null) {
  const { volume, muted } = useSound();
  useEffect(() => {
    if (!video) return;
    video.volume = volumeToGain(volume);
    video.muted = muted;
  }, [video, volume, muted]);
}

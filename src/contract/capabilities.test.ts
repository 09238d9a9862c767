import { describe, expect, it } from 'vitest';
import { describeMissingFeature } from './capabilities';

describe('features that are off, in plain words', () => {
  it('names the Debian packages a missing tool comes from', () => {
    expect(
      describeMissingFeature('speech: pocketsphinx_continuous not in the system (apt-get install pocketsphinx pocketsphinx-en-us)'),
    ).toEqual({
      feature: 'speech',
      label: 'Transcript search (speech to text)',
      reason: 'pocketsphinx and pocketsphinx-en-us are not installed on this server',
      optional: false,
    });
    expect(describeMissingFeature('media: ffmpeg, ffprobe not in the system (apt-get install ffmpeg)').reason).toBe(
      'ffmpeg is not installed on this server',
    );
  });

  it('names missing and corrupt model files, and marks add-ons as optional', () => {
    expect(describeMissingFeature('objects: yolox_nano.onnx, coco80_labels.txt not in MODELS_DIR').reason).toBe(
      'model files yolox_nano.onnx, coco80_labels.txt are not installed on this server',
    );
    expect(describeMissingFeature('objects: yolox_nano.onnx is corrupt (1000 bytes instead of 3713911)').reason).toBe(
      'yolox_nano.onnx is corrupt (1000 bytes instead of 3713911)',
    );
    const clip = describeMissingFeature('clip: textual_quant.onnx, visual_quant.onnx not in MODELS_DIR');
    expect(clip.optional).toBe(true);
    expect(clip.label).toBe('Free-text picture matching (CLIP)');
  });

  it('keeps an entry it does not know as it is', () => {
    expect(describeMissingFeature('image: cannot decode (bad header)')).toEqual({
      feature: 'image',
      label: 'image',
      reason: 'cannot decode (bad header)',
      optional: false,
    });
  });
});

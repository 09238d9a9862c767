import { describe, expect, it } from 'vitest';
import { canRemuxPreview, previewFilter } from './ffmpeg';
import { rotationOf } from './ffprobe';

const clean = { width: 1280, height: 720, videoCodec: 'h264', pixFmt: 'yuv420p', rotation: 0, interlaced: false };

describe('what goes into the preview as it is', () => {
  it('remuxes 8-bit 4:2:0 H.264 up to 720p, upright and progressive', () => {
    expect(canRemuxPreview(clean)).toBe(true);
    expect(canRemuxPreview({ ...clean, pixFmt: 'yuvj420p' })).toBe(true);
    expect(canRemuxPreview({ ...clean, width: 853, height: 481 })).toBe(true);
  });

  it('transcodes what a browser cannot play as stored', () => {
    // A phone held upright: MPEG-TS has no rotation, so the preview would be sideways.
    expect(canRemuxPreview({ ...clean, rotation: 90, width: 720, height: 1280, codedWidth: 1280, codedHeight: 720 })).toBe(false);
    expect(canRemuxPreview({ ...clean, pixFmt: 'yuv420p10le' })).toBe(false);
    expect(canRemuxPreview({ ...clean, pixFmt: 'yuv444p' })).toBe(false);
    expect(canRemuxPreview({ ...clean, interlaced: true })).toBe(false);
    expect(canRemuxPreview({ ...clean, videoCodec: 'hevc' })).toBe(false);
    expect(canRemuxPreview({ ...clean, width: 1920, height: 1080 })).toBe(false);
    // Non-square pixels: the displayed width differs from the coded one.
    expect(canRemuxPreview({ ...clean, width: 1050, height: 576, codedWidth: 720, codedHeight: 576 })).toBe(false);
  });

  it('deinterlaces, squares pixels and keeps even sides of at most 720 on the short side', () => {
    expect(previewFilter({ interlaced: false })).not.toContain('yadif');
    expect(previewFilter({ interlaced: true }).startsWith('yadif')).toBe(true);
    expect(previewFilter({})).toContain('setsar=1');
  });
});

describe('rotation', () => {
  it('reads the display matrix (counter-clockwise in ffprobe) as clockwise degrees, else the rotate tag', () => {
    expect(rotationOf({ side_data_list: [{ rotation: -90 }] })).toBe(90);
    expect(rotationOf({ side_data_list: [{ rotation: 90 }] })).toBe(270);
    expect(rotationOf({ side_data_list: [{ rotation: 180 }] })).toBe(180);
    expect(rotationOf({ side_data_list: [{}, { rotation: -90 }] })).toBe(90);
    expect(rotationOf({ tags: { rotate: '90' } })).toBe(90);
    expect(rotationOf({})).toBe(0);
  });
});

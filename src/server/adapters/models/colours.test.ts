import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { dominantColours, nameLab, regionColours, rgbToLab } from './colours';
import { decodeRgb } from './image';

const solid = async (r: number, g: number, b: number) =>
  decodeRgb(
    await sharp({ create: { width: 120, height: 90, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer(),
  );

const name = (r: number, g: number, b: number) => {
  const lab = [0, 0, 0];
  rgbToLab(r, g, b, lab);
  return nameLab(lab[0], lab[1], lab[2]);
};

describe('dominant colours', () => {
  it('calls a solid red picture red, all of it', async () => {
    expect(await dominantColours(await solid(220, 20, 30))).toEqual([{ name: 'red', fraction: 1 }]);
  });

  it('names colours in the words people search with', () => {
    expect(name(255, 255, 255)).toBe('white');
    expect(name(0, 0, 0)).toBe('black');
    expect(name(128, 128, 128)).toBe('grey');
    expect(name(0, 0, 128)).toBe('dark blue');
    expect(name(30, 90, 220)).toBe('blue');
    expect(name(135, 206, 235)).toBe('light blue');
    expect(name(34, 139, 34)).toBe('green');
    expect(name(0, 80, 0)).toBe('dark green');
    expect(name(255, 220, 0)).toBe('yellow');
    expect(name(255, 140, 0)).toBe('orange');
    expect(name(139, 69, 19)).toBe('brown');
    expect(name(128, 0, 128)).toBe('purple');
    expect(name(255, 182, 193)).toBe('pink');
    expect(name(224, 172, 140)).toBe('beige'); // skin and sand: not "orange"
  });

  it('splits a picture that is two-thirds white and one-third green by share', async () => {
    const png = await sharp({ create: { width: 90, height: 90, channels: 3, background: '#ffffff' } })
      .composite([{ input: { create: { width: 30, height: 90, channels: 3, background: '#1f9e2f' } }, left: 60, top: 0 }])
      .png()
      .toBuffer();
    const t = performance.now();
    const colours = await dominantColours(await decodeRgb(png));
    console.log(`[timing] dominant colours: ${(performance.now() - t).toFixed(1)} ms per keyframe`);
    expect(colours.map((c) => c.name)).toEqual(['white', 'green']);
    expect(colours[0].fraction).toBeCloseTo(2 / 3, 1);
    expect(colours[1].fraction).toBeCloseTo(1 / 3, 1);
  });
});

describe('region colours', () => {
  it("names the colours of an object's box, not of the picture around it", async () => {
    // a yellow block (the object) in the middle of a blue picture
    const img = await decodeRgb(
      await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 30, g: 90, b: 220 } } })
        .composite([
          { input: { create: { width: 80, height: 50, channels: 3, background: { r: 250, g: 215, b: 20 } } }, left: 60, top: 25 },
        ])
        .png()
        .toBuffer(),
    );
    expect(regionColours(img, [0.3, 0.25, 0.7, 0.75])).toEqual([{ name: 'yellow', fraction: 1 }]);
    expect(regionColours(img, [0, 0, 0.25, 1])[0]).toEqual({ name: 'blue', fraction: 1 });
    // a box straddling both: the larger share first
    const both = regionColours(img, [0.1, 0.25, 0.6, 0.75]).map((c) => c.name);
    expect(both).toEqual(['yellow', 'blue']);
    expect(regionColours(img, [0.5, 0.5, 0.5, 0.5]).length).toBeLessThanOrEqual(1);
  });
});

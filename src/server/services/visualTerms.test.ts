import { describe, expect, it } from 'vitest';
import { cachedExpander, evidenceOf, frameScore, shotTermScores, termScores } from './visualTerms';

const expand = cachedExpander((label) =>
  label === 'Alaskan Malamute' ? ['malamute', 'sled dog', 'dog', 'canine', 'animal'] : label === 'horse' ? ['equine', 'animal'] : [label],
);
const dogFrame = {
  objects: [{ label: 'dog', score: 0.8, box: [0, 0, 1, 1] }],
  classes: [{ label: 'Alaskan Malamute', score: 0.6 }],
  colours: [{ name: 'white', fraction: 0.3 }],
  ocr: 'BEACH',
};

describe('visual terms', () => {
  it('scores each word as frameScore scores that word alone', () => {
    const ev = evidenceOf(dogFrame);
    const terms = termScores(ev, expand);
    for (const word of ['dog', 'animal', 'malamute', 'white', 'beach', 'canine'])
      expect(terms.get(word)).toBeCloseTo(frameScore(ev, [{ forms: [word] }], expand), 6);
    // the detector's dog and the classifier's malamute are both evidence for 'dog'
    expect(terms.get('dog')!).toBeGreaterThan(0.8);
    // expansions count a little less than the label itself; colours are not expanded
    expect(terms.get('animal')!).toBeLessThan(terms.get('dog')!);
    expect(terms.has('horse')).toBe(false);
  });

  it("keeps a shot's best score per word over its keyframes", () => {
    const weak = { objects: [{ label: 'horse', score: 0.3 }], classes: [], colours: [], ocr: '' };
    const strong = { objects: [{ label: 'horse', score: 0.9 }], classes: [], colours: [], ocr: '' };
    const shot = shotTermScores([weak, strong], expand);
    expect(shot.get('horse')).toBeCloseTo(0.9, 6);
    expect(shot.get('equine')).toBeCloseTo(0.9 * 0.85, 6);
  });
});

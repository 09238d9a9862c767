import { describe, expect, it } from 'vitest';
import { cachedExpander, evidenceOf, frameScore, ocrIndexWords, shotTermScores, termScores } from './visualTerms';

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

  it("finds on-screen capitals that ran together ('PLATFORMNINE') by the words of the query", () => {
    const ocr = ocrIndexWords([{ word: 'NEXT' }, { word: 'STOPPLATFORMNINE', parts: ['stop', 'platform', 'nine'] }]).join(' ');
    expect(ocr).toBe('next stopplatformnine stop platform nine');
    const frame = { objects: [], classes: [], colours: [], ocr };
    const ev = evidenceOf(frame);
    expect(frameScore(ev, [{ forms: ['platform'] }, { forms: ['nine'] }], expand)).toBeCloseTo(1, 2);
    expect(frameScore(ev, [{ forms: ['stopplatformnine'] }], expand)).toBeCloseTo(1, 2);
    // the shot index the search starts from has the parts too
    const shot = shotTermScores([frame], expand);
    for (const w of ['next', 'stop', 'platform', 'nine']) expect(shot.get(w), w).toBeGreaterThan(0.9);
  });
});

import { describe, expect, it } from 'vitest';
import { spokenForms } from './spokenForms';

describe('spokenForms', () => {
  it('writes titles one way, however they were written or said', () => {
    for (const s of ['Mr. John Dashwood', 'mr john dashwood', 'Mister John Dashwood', 'MR JOHN DASHWOOD'])
      expect(spokenForms(s), s).toBe('mister john dashwood');
    expect(spokenForms('Mrs. Jennings and missus Palmer')).toBe('missus jennings and missus palmer');
    expect(spokenForms('Dr. Watson, doctor Watson')).toBe('doctor watson, doctor watson');
    expect(spokenForms('Prof. Plum said OK')).toBe('professor plum said okay');
  });

  it('writes numbers said as words as digits', () => {
    expect(spokenForms('twenty five')).toBe('25');
    expect(spokenForms('twenty-five people')).toBe('25 people');
    expect(spokenForms('at 25 past nine')).toBe('at 25 past 9');
    expect(spokenForms('one hundred and five')).toBe('105');
    expect(spokenForms('a thousand miles')).toBe('1000 miles');
    expect(spokenForms('two thousand and six')).toBe('2006');
    expect(spokenForms('three million two hundred thousand')).toBe('3200000');
    expect(spokenForms('1,000 and 1,250,000')).toBe('1000 and 1250000');
    expect(spokenForms('nineteen eighty four')).toBe('1984');
    expect(spokenForms('in twenty twenty')).toBe('in 2020');
    expect(spokenForms('ninety nine')).toBe('99');
    expect(spokenForms('zero')).toBe('0');
  });

  it('keeps numbers apart that were said apart', () => {
    expect(spokenForms('five six seven')).toBe('5 6 7');
    expect(spokenForms('twenty, five')).toBe('20, 5');
    expect(spokenForms('one two')).toBe('1 2');
    expect(spokenForms('five twenty')).toBe('5 20');
    expect(spokenForms('and one and two')).toBe('and 1 and 2');
    expect(spokenForms('a dog')).toBe('a dog');
    expect(spokenForms('hundreds of them')).toBe('hundreds of them');
  });

  it('writes ordinals as digits, except second, which is also time', () => {
    expect(spokenForms('the twenty first of may')).toBe('the 21st of may');
    expect(spokenForms('the 21st of May')).toBe('the 21st of may');
    expect(spokenForms('first and third')).toBe('1st and 3rd');
    expect(spokenForms('the 1st, the 2nd, the 3rd')).toBe('the 1st, the second, the 3rd');
    expect(spokenForms('wait a second')).toBe('wait a second');
    expect(spokenForms('eleventh hour')).toBe('11th hour');
    expect(spokenForms('one hundredth')).toBe('100th');
  });

  it('spells contractions out', () => {
    expect(spokenForms("I don't know")).toBe('i do not know');
    expect(spokenForms('I do not know')).toBe('i do not know');
    expect(spokenForms("we won't, they can't")).toBe('we will not, they can not');
    expect(spokenForms("I'm sure you'll see we've been there, they'd say")).toBe(
      'i am sure you will see we have been there, they would say',
    );
    expect(spokenForms("it's here, let's go, John's hat")).toBe("it is here, let us go, john's hat");
    expect(spokenForms('I’m gonna, you wanna')).toBe('i am going to, you want to');
  });

  it('is what it makes again (both ways meet)', () => {
    for (const s of ['Mr. John Dashwood owes 25 pounds', "twenty-five won't do, it's the 3rd", 'nineteen eighty four'])
      expect(spokenForms(spokenForms(s))).toBe(spokenForms(s));
  });
});

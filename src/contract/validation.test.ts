import { describe, expect, it } from 'vitest';
import { isValidEmail, passwordCriteria, safeNextPath, sendableText, validatePreferences } from './validation';

describe('safeNextPath', () => {
  it.each(['/settings/password', '/library/abc?tab=transcript', '/search?text=dog%20beach'])('keeps %s', (p) => {
    expect(safeNextPath(p)).toBe(p);
  });
  it.each(['//evil.example', 'https://evil.example/x', '/a/../b', '/a\\b', 'settings', '', null, '/x//y', '/\\evil.example'])(
    'replaces %s with /workspace',
    (p) => {
      expect(safeNextPath(p)).toBe('/workspace');
    },
  );
});

describe('validation', () => {
  it('checks the simple email shape', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b')).toBe(false);
    expect(isValidEmail('a b@c.de')).toBe(false);
  });
  it('reports the two password criteria', () => {
    expect(passwordCriteria('1234567', '1234567')).toEqual({ length: false, match: true });
    expect(passwordCriteria('12345678', '1234567')).toEqual({ length: true, match: false });
    expect(passwordCriteria('', '')).toEqual({ length: false, match: false });
  });
  it('validates preference patches', () => {
    expect(validatePreferences({ libraryViewMode: 'grid', enableSounds: false })).toBeNull();
    expect(validatePreferences({ libraryViewMode: 'tiles' })).toMatch(/libraryViewMode/);
    expect(validatePreferences({ enableSounds: 'yes' })).toMatch(/enableSounds/);
    expect(validatePreferences({ processingListModalActiveKeys: [1] })).toMatch(/processingListModalActiveKeys/);
    expect(validatePreferences({ nope: 1 })).toMatch(/Unknown setting/);
    expect(validatePreferences([])).not.toBeNull();
  });
});

describe('sendableText', () => {
  it('turns control characters into spaces, keeping line breaks only where asked', () => {
    expect(sendableText('a\u0000b\tc\nd\u001b[0m\u007f')).toBe('a b c d [0m ');
    expect(sendableText('a\u0000b\tc\nd', { lines: true })).toBe('a b\tc\nd');
  });

  it('replaces lone surrogates and never cuts a pair in two', () => {
    expect(sendableText('x\ud800y\udc00')).toBe('x\ufffdy\ufffd');
    expect(sendableText('ab😀', { max: 3 })).toBe('ab');
    expect(sendableText('ab😀', { max: 4 })).toBe('ab😀');
    expect(sendableText('abc', { max: 2 })).toBe('ab');
  });
});

import { describe, expect, it } from 'vitest';
import { isValidEmail, passwordCriteria, safeNextPath, validatePreferences } from './validation';

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

import { describe, expect, it } from '@jest/globals';
import { languageName, uiStrings } from './ui-strings.js';

const LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl'];

describe('help center interface strings', () => {
  it.each(LANGUAGES)('%s: its own strings, every one written (none left empty or in English where the language has a word)', (language) => {
    const strings = uiStrings(language);
    expect(strings.language).toBe(language);
    for (const [key, value] of Object.entries(strings)) {
      const text = typeof value === 'function' ? String((value as (...args: unknown[]) => unknown)(2, 'X')) : String(value);
      expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
    }
    if (language !== 'en') {
      const english = uiStrings('en');
      for (const key of ['searchButton', 'homeHeading', 'feedbackQuestion', 'notFoundHeading', 'related'] as const) expect(strings[key]).not.toBe(english[key]);
    }
  });

  it('plurals and numbers follow the language', () => {
    expect(uiStrings('pt').articleCount(1)).toBe('1 artigo');
    expect(uiStrings('pt').articleCount(1200)).toBe('1.200 artigos');
    expect(uiStrings('it').articleCount(2)).toBe('2 articoli');
    expect(uiStrings('nl').articleCount(1)).toBe('1 artikel');
    expect(uiStrings('de').articleCount(1200)).toBe('1.200 Artikel');
  });

  it('a regional language uses its base language; a language without strings uses English', () => {
    expect(uiStrings('pt-BR').language).toBe('pt');
    expect(uiStrings('nl-BE').language).toBe('nl');
    expect(uiStrings('ja').language).toBe('en');
    expect(languageName('pt-BR')).toMatch(/^Português/);
  });
});

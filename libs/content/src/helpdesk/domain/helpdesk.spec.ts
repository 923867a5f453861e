import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#core/domain';
import { DEFAULT_HELPDESK_NAME, Helpdesk } from './helpdesk.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:05:00.000Z');

function fieldOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('invalid_request');
    return (error as ValidationError).details?.[0]?.field;
  }
  throw new Error('expected a ValidationError');
}

describe('Helpdesk', () => {
  describe('create', () => {
    it('takes the first language as the default one and keeps the given order', () => {
      const helpdesk = Helpdesk.create(['fr', 'en', 'de'], T0);
      expect(helpdesk.id).toMatch(/^help_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(helpdesk.name).toBe(DEFAULT_HELPDESK_NAME);
      expect(helpdesk.defaultLanguage).toBe('fr');
      expect(helpdesk.languages).toEqual(['fr', 'en', 'de']);
      expect(helpdesk.createdAt).toEqual(T0);
      expect(helpdesk.updatedAt).toEqual(T0);
    });

    it('drops duplicate languages', () => {
      expect(Helpdesk.create(['en', 'fr', 'en', 'fr'], T0).languages).toEqual(['en', 'fr']);
    });

    it('refuses no languages and codes that are not language codes', () => {
      expect(fieldOf(() => Helpdesk.create([], T0))).toBe('languages');
      for (const bad of ['EN', 'english', 'e', 'pt_BR', 'en-', '']) expect(fieldOf(() => Helpdesk.create(['en', bad], T0))).toBe('languages');
    });

    it('accepts region and script subtags', () => {
      expect(Helpdesk.create(['en', 'pt-BR', 'zh-Hant', 'es-419'], T0).languages).toEqual(['en', 'pt-BR', 'zh-Hant', 'es-419']);
    });

    it('gives every helpdesk its own ID', () => {
      expect(Helpdesk.create(['en'], T0).id).not.toBe(Helpdesk.create(['en'], T0).id);
    });
  });

  describe('update', () => {
    it('renames (trimmed) and moves updatedAt, nothing else', () => {
      const helpdesk = Helpdesk.create(['en', 'fr'], T0);
      helpdesk.update({ name: '  Acme  ' }, T1);
      expect(helpdesk.snapshot()).toEqual({ ...helpdesk.snapshot(), name: 'Acme', languages: ['en', 'fr'], createdAt: T0, updatedAt: T1 });
    });

    it('refuses a blank name and keeps the old one', () => {
      const helpdesk = Helpdesk.create(['en'], T0);
      expect(fieldOf(() => helpdesk.update({ name: '   ' }, T1))).toBe('name');
      expect(helpdesk.name).toBe(DEFAULT_HELPDESK_NAME);
      expect(helpdesk.updatedAt).toEqual(T0);
    });

    it('changes the languages, keeping the default one first and dropping duplicates', () => {
      const helpdesk = Helpdesk.create(['en'], T0);
      helpdesk.update({ languages: ['de', 'fr', 'en', 'de'] }, T1);
      expect(helpdesk.languages).toEqual(['en', 'de', 'fr']);
      expect(helpdesk.defaultLanguage).toBe('en');
      expect(helpdesk.updatedAt).toEqual(T1);
    });

    it('refuses languages without the default one, empty languages or a bad code, and changes nothing', () => {
      const helpdesk = Helpdesk.create(['en', 'fr'], T0);
      const before = helpdesk.snapshot();
      expect(fieldOf(() => helpdesk.update({ languages: ['fr'] }, T1))).toBe('languages');
      expect(fieldOf(() => helpdesk.update({ languages: [] }, T1))).toBe('languages');
      expect(fieldOf(() => helpdesk.update({ languages: ['en', 'Français'] }, T1))).toBe('languages');
      // A valid name alongside refused languages is not applied either.
      expect(fieldOf(() => helpdesk.update({ name: 'New', languages: ['fr'] }, T1))).toBe('languages');
      expect(helpdesk.snapshot()).toEqual(before);
    });

    it('cannot change the default language: a list without it is refused, a reordered list keeps it first', () => {
      const helpdesk = Helpdesk.create(['fr', 'en'], T0);
      helpdesk.update({ languages: ['en', 'fr'] }, T1);
      expect(helpdesk.defaultLanguage).toBe('fr');
      expect(helpdesk.languages).toEqual(['fr', 'en']);
    });

    it('snapshot is a copy: changing it does not change the helpdesk', () => {
      const helpdesk = Helpdesk.create(['en', 'fr'], T0);
      (helpdesk.snapshot().languages as string[]).push('de');
      expect(helpdesk.languages).toEqual(['en', 'fr']);
    });
  });

  describe('assertTranslationLanguage', () => {
    const helpdesk = Helpdesk.create(['en', 'fr', 'pt-BR'], T0);

    it('accepts an enabled language other than the default one', () => {
      expect(() => helpdesk.assertTranslationLanguage('fr')).not.toThrow();
      expect(() => helpdesk.assertTranslationLanguage('pt-BR')).not.toThrow();
    });

    it('refuses the default language, a language that is not enabled, and near misses', () => {
      for (const language of ['en', 'de', 'FR', 'fr-FR', 'pt-br', 'pt', '', 'not a code']) {
        expect(fieldOf(() => helpdesk.assertTranslationLanguage(language))).toBe('language');
      }
    });
  });
});

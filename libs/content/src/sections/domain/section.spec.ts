import { describe, expect, it } from '@jest/globals';
import { InvalidStateError } from '#core/domain';
import { DEFAULT_SECTION_NAME, Section } from './section.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:05:00.000Z');
const T2 = new Date('2026-11-22T10:10:00.000Z');
const HELPDESK = 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';

function section(input: { position?: number; isDefault?: boolean } = {}): Section {
  return Section.create({ helpdeskId: HELPDESK, name: 'Billing', position: input.position ?? 1, isDefault: input.isDefault }, T0);
}

describe('Section', () => {
  it('is created with its fields, not the default unless asked, without translations', () => {
    const s = section();
    expect(s.snapshot()).toEqual({
      id: expect.stringMatching(/^sect_[0-9A-HJKMNP-TV-Z]{26}$/),
      helpdeskId: HELPDESK,
      name: 'Billing',
      isDefault: false,
      position: 1,
      createdAt: T0,
      updatedAt: T0,
      translations: [],
    });
    expect(section({ isDefault: true }).isDefault).toBe(true);
    expect(DEFAULT_SECTION_NAME).toBe('General');
  });

  describe('update', () => {
    it('renames, repositions and moves updatedAt; the rest stays', () => {
      const s = section();
      const before = s.snapshot();
      s.update({ name: 'Payments', position: 9 }, T1);
      expect(s.snapshot()).toEqual({ ...before, name: 'Payments', position: 9, updatedAt: T1 });
    });

    it('isDefault: true makes it the default', () => {
      const s = section();
      s.update({ isDefault: true }, T1);
      expect(s.isDefault).toBe(true);
    });

    it('isDefault: false on the default section is refused (invalid_state) and nothing changes', () => {
      const s = section({ isDefault: true });
      const before = s.snapshot();
      expect(() => s.update({ isDefault: false, name: 'Renamed' }, T1)).toThrow(InvalidStateError);
      expect(s.snapshot()).toEqual(before);
    });

    it('isDefault: false on another section changes nothing about it being the default', () => {
      const s = section();
      s.update({ isDefault: false }, T1);
      expect(s.isDefault).toBe(false);
    });
  });

  it('clearDefault stops it being the default', () => {
    const s = section({ isDefault: true });
    s.clearDefault(T1);
    expect(s.snapshot()).toMatchObject({ isDefault: false, updatedAt: T1 });
  });

  describe('assertDeletable', () => {
    it('an empty, non-default section may be deleted', () => {
      expect(() => section().assertDeletable({ collections: 0, articles: 0 })).not.toThrow();
    });

    it('the default section may not, even when empty', () => {
      const error = (() => {
        try {
          section({ isDefault: true }).assertDeletable({ collections: 0, articles: 0 });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidStateError);
      expect((error as InvalidStateError).code).toBe('invalid_state');
    });

    it('a section holding collections may not', () => {
      expect(() => section().assertDeletable({ collections: 1, articles: 0 })).toThrow(InvalidStateError);
      expect(() => section().assertDeletable({ collections: 3, articles: 0 })).toThrow(/3 collection/);
    });

    it('a section holding articles may not', () => {
      expect(() => section().assertDeletable({ collections: 0, articles: 2 })).toThrow(/2 article/);
    });
  });

  describe('putTranslation', () => {
    it('creates a translation the first time', () => {
      const s = section();
      const { translation, created } = s.putTranslation('fr', { name: 'Facturation', status: 'published' }, T1);
      expect(created).toBe(true);
      expect(translation).toEqual({
        id: expect.stringMatching(/^sectr_[0-9A-HJKMNP-TV-Z]{26}$/),
        sectionId: s.id,
        language: 'fr',
        name: 'Facturation',
        status: 'published',
        createdAt: T1,
        updatedAt: T1,
      });
      expect(s.snapshot().translations).toEqual([translation]);
    });

    it('replaces it the next time: same id and createdAt, new fields and updatedAt', () => {
      const s = section();
      const first = s.putTranslation('fr', { name: 'Facturation', status: 'published' }, T1).translation;
      const { translation, created } = s.putTranslation('fr', { name: 'Paiements', status: 'draft' }, T2);
      expect(created).toBe(false);
      expect(translation).toEqual({ ...first, name: 'Paiements', status: 'draft', updatedAt: T2 });
      expect(s.snapshot().translations).toEqual([translation]);
    });

    it('keeps one translation per language', () => {
      const s = section();
      s.putTranslation('fr', { name: 'Facturation', status: 'published' }, T1);
      s.putTranslation('de', { name: 'Abrechnung', status: 'draft' }, T1);
      s.putTranslation('fr', { name: 'Factures', status: 'published' }, T2);
      expect(s.snapshot().translations.map((t) => [t.language, t.name])).toEqual([
        ['fr', 'Factures'],
        ['de', 'Abrechnung'],
      ]);
    });

    it('does not touch the section itself', () => {
      const s = section();
      s.putTranslation('fr', { name: 'Facturation', status: 'published' }, T1);
      expect(s.snapshot()).toMatchObject({ name: 'Billing', updatedAt: T0 });
    });
  });

  it('snapshot is a copy: pushing into its translations does not change the section', () => {
    const s = section();
    (s.snapshot().translations as unknown[]).push({});
    expect(s.snapshot().translations).toEqual([]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#core/domain';
import { Collection, generateShortId, SHORT_ID_PATTERN } from './collection.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:05:00.000Z');
const T2 = new Date('2026-11-22T10:10:00.000Z');
const HELPDESK = 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const SECTION = 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const OTHER_SECTION = 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7F';
const PARENT = 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';

function collection(shortId = 'getting-started'): Collection {
  return Collection.create({ helpdeskId: HELPDESK, title: 'Getting started', subtitle: null, shortId, sectionId: SECTION, parentCollectionId: null }, T0);
}

function fieldOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details?.[0]?.field;
  }
  throw new Error('expected a ValidationError');
}

describe('generateShortId', () => {
  it('makes IDs of the asked length that match the pattern, without ambiguous characters', () => {
    for (const length of [2, 7, 12, 64]) {
      const id = generateShortId(length);
      expect(id).toHaveLength(length);
      expect(id).toMatch(SHORT_ID_PATTERN);
      expect(id).not.toMatch(/[01ilo]/);
    }
    expect(generateShortId()).toHaveLength(7);
  });

  it('rarely repeats itself', () => {
    const ids = Array.from({ length: 2000 }, () => generateShortId());
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('SHORT_ID_PATTERN', () => {
  it.each(['ab', '9z', 'a-b', 'getting-started', 'a'.repeat(64)])('accepts %p', (value) => expect(SHORT_ID_PATTERN.test(value)).toBe(true));
  it.each(['a', '', 'A1', '-ab', 'a_b', 'a b', 'é1', 'a'.repeat(65)])('refuses %p', (value) => expect(SHORT_ID_PATTERN.test(value)).toBe(false));
});

describe('Collection', () => {
  it('is created with its fields and no translations', () => {
    expect(collection().snapshot()).toEqual({
      id: expect.stringMatching(/^col_[0-9A-HJKMNP-TV-Z]{26}$/),
      helpdeskId: HELPDESK,
      sectionId: SECTION,
      parentCollectionId: null,
      title: 'Getting started',
      subtitle: null,
      shortId: 'getting-started',
      createdAt: T0,
      updatedAt: T0,
      translations: [],
    });
  });

  it('refuses an invalid shortId at creation', () => {
    for (const bad of ['A', 'Upper', '-x', 'a_b', 'a'.repeat(65)]) expect(fieldOf(() => collection(bad))).toBe('shortId');
  });

  describe('update', () => {
    it('changes title, subtitle and shortId and moves updatedAt; placement and createdAt stay', () => {
      const c = collection();
      const before = c.snapshot();
      c.update({ title: 'Start here', subtitle: 'The basics', shortId: 'start' }, T1);
      expect(c.snapshot()).toEqual({ ...before, title: 'Start here', subtitle: 'The basics', shortId: 'start', updatedAt: T1 });
    });

    it('subtitle null clears it; omitted fields stay', () => {
      const c = collection();
      c.update({ subtitle: 'Something' }, T1);
      c.update({ subtitle: null }, T2);
      expect(c.snapshot()).toMatchObject({ title: 'Getting started', subtitle: null, shortId: 'getting-started', updatedAt: T2 });
    });

    it('an invalid shortId is refused and nothing changes, not even the title given with it', () => {
      const c = collection();
      const before = c.snapshot();
      expect(fieldOf(() => c.update({ title: 'New', shortId: 'Not Valid' }, T1))).toBe('shortId');
      expect(c.snapshot()).toEqual(before);
    });
  });

  describe('moveTo', () => {
    it('changes section and parent and moves updatedAt', () => {
      const c = collection();
      c.moveTo(OTHER_SECTION, PARENT, T1);
      expect(c.snapshot()).toMatchObject({ sectionId: OTHER_SECTION, parentCollectionId: PARENT, updatedAt: T1 });
      expect(c.sectionId).toBe(OTHER_SECTION);
      expect(c.parentCollectionId).toBe(PARENT);
      c.moveTo(null, null, T2);
      expect(c.snapshot()).toMatchObject({ sectionId: null, parentCollectionId: null, updatedAt: T2 });
    });

    it('refuses itself as parent and changes nothing', () => {
      const c = collection();
      const before = c.snapshot();
      expect(fieldOf(() => c.moveTo(OTHER_SECTION, c.id, T1))).toBe('parent_collection_id');
      expect(c.snapshot()).toEqual(before);
    });
  });

  describe('putTranslation', () => {
    it('creates, then replaces the same translation (same id and createdAt)', () => {
      const c = collection();
      const first = c.putTranslation('fr', { title: 'Premiers pas', subtitle: 'Les bases', status: 'published' }, T1);
      expect(first.created).toBe(true);
      expect(first.translation).toEqual({
        id: expect.stringMatching(/^coltr_[0-9A-HJKMNP-TV-Z]{26}$/),
        collectionId: c.id,
        language: 'fr',
        title: 'Premiers pas',
        subtitle: 'Les bases',
        status: 'published',
        createdAt: T1,
        updatedAt: T1,
      });
      const second = c.putTranslation('fr', { title: 'Démarrer', subtitle: null, status: 'draft' }, T2);
      expect(second.created).toBe(false);
      expect(second.translation).toEqual({ ...first.translation, title: 'Démarrer', subtitle: null, status: 'draft', updatedAt: T2 });
      expect(c.snapshot().translations).toEqual([second.translation]);
    });

    it('keeps one translation per language and leaves the collection itself alone', () => {
      const c = collection();
      c.putTranslation('fr', { title: 'FR', subtitle: null, status: 'published' }, T1);
      c.putTranslation('de', { title: 'DE', subtitle: null, status: 'published' }, T1);
      c.putTranslation('de', { title: 'DE 2', subtitle: null, status: 'draft' }, T2);
      expect(c.snapshot().translations.map((t) => [t.language, t.title])).toEqual([
        ['fr', 'FR'],
        ['de', 'DE 2'],
      ]);
      expect(c.snapshot()).toMatchObject({ title: 'Getting started', updatedAt: T0 });
    });
  });
});

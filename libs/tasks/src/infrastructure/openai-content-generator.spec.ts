import { describe, expect, it } from '@jest/globals';
import { GenerationError, type GenerationRequest } from '../application/content-generator.port.js';
import { validate } from './openai-content-generator.js';

type Target = GenerationRequest['target'];

const ARTICLE: Target = { kind: 'article', id: 'art_1', title: 'Reset your password', markdown: 'Open Settings.' };
const COLLECTION: Target = { kind: 'collection', id: 'col_1', title: 'Billing', markdown: 'Invoices and plans' };
const SECTION: Target = { kind: 'section', id: 'sect_1', title: 'General', markdown: '' };

function request(target: Target = null, collectionId: string | null = null, sectionId: string | null = null) {
  return { target, collectionId, sectionId };
}

function change(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'article', operation: 'create', title: 'Exporting invoices', markdown: 'Go to **Billing**.', targetArticleId: null, targetCollectionId: null, targetSectionId: null, ...overrides };
}

function answer(changes: unknown[] = [change()], title: unknown = 'Export invoices'): Record<string, unknown> {
  return { title, changes };
}

/** The GenerationError validate() throws for `value` (fails the test when it does not throw one). */
function rejection(value: unknown, target: Target = null): GenerationError {
  try {
    validate(value, request(target));
  } catch (error) {
    expect(error).toBeInstanceOf(GenerationError);
    return error as GenerationError;
  }
  throw new Error(`validate() accepted ${JSON.stringify(value)}`);
}

describe('validate() of the model answer', () => {
  describe('accepts', () => {
    it('a create: changes trimmed into proposed changes (a task title in the answer is ignored)', () => {
      const result = validate(answer([change({ title: '  Exporting invoices  ', targetSectionId: 'sect_9', targetCollectionId: 'col_9' })], '  Export invoices \n'), request());
      expect(result).toEqual({
        changes: [
          { kind: 'article', operation: 'create', title: 'Exporting invoices', markdown: 'Go to **Billing**.', targetArticleId: null, targetCollectionId: 'col_9', targetSectionId: 'sect_9' },
        ],
      });
    });

    it('an update of the task’s own target (article, collection, section)', () => {
      expect(validate(answer([change({ operation: 'update', targetArticleId: 'art_1' })]), request(ARTICLE)).changes[0]).toMatchObject({ operation: 'update', targetArticleId: 'art_1' });
      expect(validate(answer([change({ kind: 'collection', operation: 'update', markdown: 'Plans', targetCollectionId: 'col_1' })]), request(COLLECTION)).changes[0]).toMatchObject({
        kind: 'collection',
        targetCollectionId: 'col_1',
      });
      expect(validate(answer([change({ kind: 'section', operation: 'update', markdown: '', targetSectionId: 'sect_1' })]), request(SECTION)).changes[0]).toMatchObject({
        kind: 'section',
        markdown: '',
        targetSectionId: 'sect_1',
      });
    });

    it('up to 10 changes, mixing an update of the target with creates; missing target IDs read as null', () => {
      const { kind, operation, title, markdown } = change();
      const changes = [change({ operation: 'update', targetArticleId: 'art_1' }), ...Array.from({ length: 9 }, (_, i) => ({ kind, operation, title: `${title} ${i}`, markdown }))];
      const result = validate(answer(changes), request(ARTICLE));
      expect(result.changes).toHaveLength(10);
      expect(result.changes[9]).toEqual({ kind: 'article', operation: 'create', title: 'Exporting invoices 8', markdown: 'Go to **Billing**.', targetArticleId: null, targetCollectionId: null, targetSectionId: null });
    });

    it('an empty body and a 255-character title', () => {
      const result = validate(answer([change({ title: 'x'.repeat(255), markdown: '' })], 'y'.repeat(300)), request());
      expect(result.changes[0]!.title).toHaveLength(255);
      expect(result.changes[0]!.markdown).toBe('');
    });

    it('ignores properties outside the schema', () => {
      const result = validate({ ...answer([{ ...change(), confidence: 0.9 }]), reasoning: 'because' }, request());
      expect(result).toEqual({ changes: [change()] });
    });
  });

  describe('rejects, as a final (not retryable) GenerationError saying the output is malformed', () => {
    const cases: Array<[string, unknown, RegExp, Target?]> = [
      ['null', null, /not an object/],
      ['a string', 'Here are the changes', /not an object/],
      ['a number', 42, /not an object/],
      ['an array', [change()], /"changes" must be an array of 1 to 10 changes/],
      ['no changes', { title: 'T' }, /"changes" must be an array of 1 to 10 changes/],
      ['changes that are not an array', answer({ 0: change() } as unknown as unknown[]), /"changes" must be an array/],
      ['an empty changes array', answer([]), /"changes" must be an array of 1 to 10 changes/],
      ['11 changes', answer(Array.from({ length: 11 }, () => change())), /"changes" must be an array of 1 to 10 changes/],
      ['a null change', answer([null]), /changes\[0\] is not an object/],
      ['a string change', answer([change(), 'update it']), /changes\[1\]/],
      ['an unknown kind', answer([change({ kind: 'page' })]), /changes\[0\]\.kind must be one of article, collection, section/],
      ['no kind', answer([change({ kind: undefined })]), /changes\[0\]\.kind must be one of/],
      ['an unknown operation', answer([change({ operation: 'delete' })]), /changes\[0\]\.operation must be create or update/],
      ['an empty change title', answer([change({ title: ' ' })]), /changes\[0\]\.title must be 1 to 255 characters/],
      ['a change title over 255 characters', answer([change({ title: 'x'.repeat(256) })]), /changes\[0\]\.title must be 1 to 255 characters/],
      ['a change title that is not a string', answer([change({ title: ['a'] })]), /changes\[0\]\.title must be 1 to 255 characters/],
      ['NUL in a change title', answer([change({ title: 'Reset\u0000' })]), /changes\[0\]\.title must not contain the NUL character \(U\+0000\)/],
      ['an unpaired surrogate in markdown', answer([change({ markdown: 'Text \ud800' })]), /changes\[0\]\.markdown must be valid Unicode text: it contains an unpaired surrogate \(U\+D800\)/],
      ['NUL in a target ID', answer([change({ targetSectionId: 'sect_\u0000' })]), /changes\[0\]\.targetSectionId must not contain the NUL character/],
      ['markdown that is not a string', answer([change({ markdown: { text: 'x' } })]), /changes\[0\]\.markdown must be a string of at most 200000 characters/],
      ['markdown over 200000 characters', answer([change({ markdown: 'x'.repeat(200_001) })]), /changes\[0\]\.markdown must be a string of at most 200000 characters/],
      ['a numeric targetArticleId', answer([change({ targetArticleId: 12 })]), /changes\[0\]\.targetArticleId must be a string or null/],
      ['a boolean targetCollectionId', answer([change({ targetCollectionId: false })]), /changes\[0\]\.targetCollectionId must be a string or null/],
      ['an object targetSectionId', answer([change({ targetSectionId: { id: 'sect_1' } })]), /changes\[0\]\.targetSectionId must be a string or null/],
      ['an update when the task has no target', answer([change({ operation: 'update', targetArticleId: 'art_1' })]), /changes\[0\] updates something other than the task's target/],
      ['an update of another article', answer([change({ operation: 'update', targetArticleId: 'art_2' })]), /changes\[0\] updates something other than the task's target/, ARTICLE],
      ['an update of the target without its ID', answer([change({ operation: 'update' })]), /updates something other than the task's target/, ARTICLE],
      [
        'an update of the target’s ID under another kind',
        answer([change({ kind: 'collection', operation: 'update', targetCollectionId: 'art_1' })]),
        /updates something other than the task's target/,
        ARTICLE,
      ],
      ['an update of a section when the target is a collection', answer([change({ kind: 'section', operation: 'update', targetSectionId: 'col_1' })]), /updates something other/, COLLECTION],
      [
        'a second change updating something else',
        answer([change({ operation: 'update', targetArticleId: 'art_1' }), change({ operation: 'update', targetArticleId: 'art_3' })]),
        /changes\[1\] updates something other than the task's target/,
        ARTICLE,
      ],
    ];

    it.each(cases)('%s', (_name, value, why, target = null) => {
      const error = rejection(value, target);
      expect(error.message).toMatch(/^The model returned malformed output: /);
      expect(error.message).toMatch(why);
      expect(error.retryable).toBe(false);
      expect(error.name).toBe('GenerationError');
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  ContentModule,
  CreateCollectionUseCase,
  CreateSectionUseCase,
  DeleteCollectionUseCase,
  DeleteSectionUseCase,
  EnsureHelpdeskUseCase,
  GetCollectionUseCase,
  GetHelpdeskUseCase,
  MoveCollectionUseCase,
  PutSectionTranslationUseCase,
  UpdateCollectionUseCase,
  UpdateHelpdeskUseCase,
  UpdateSectionUseCase,
} from '#content';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The helpdesk, section and collection use cases below HTTP: the content lib's Nest module with its SQL
// repositories against a PostgreSQL database of this file's own, so locks and unique rules meet real concurrency.

jest.setTimeout(60_000);

type Settled<T> = { ok: true; value: T } | { ok: false; code: string | undefined };

async function settle<T>(work: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await work };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code };
  }
}

describe('helpdesk, sections and collections use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => t.rows<T>(sql, params);

  /** Events recorded in the outbox, oldest first: [type, id of the resource]. */
  async function events(): Promise<Array<[string, string]>> {
    const recorded = await rows<{ type: string; id: string }>(`SELECT type, data->>'id' AS id FROM outbox_events ORDER BY occurred_at, id`);
    return recorded.map((e) => [e.type, e.id]);
  }

  beforeAll(async () => {
    t = await createUseCaseModule([ContentModule], { env: { HELPDESK_LANGUAGES: 'en,fr,de' } });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.db.query('DELETE FROM outbox_events');
  });

  describe('EnsureHelpdeskUseCase (run at start-up)', () => {
    it('created the helpdesk with the configured languages and one default section; running it again changes nothing', async () => {
      const first = await use(GetHelpdeskUseCase).execute();
      expect(first.languages).toEqual(['en', 'fr', 'de']);
      const again = await Promise.all([1, 2, 3].map(() => use(EnsureHelpdeskUseCase).execute()));
      expect(again.map((h) => h.id)).toEqual([first.id, first.id, first.id]);
      expect(await rows('SELECT count(*)::int AS n FROM helpdesks')).toEqual([{ n: 1 }]);
      expect(await rows('SELECT name, position FROM sections WHERE is_default')).toEqual([{ name: 'General', position: 0 }]);
    });
  });

  describe('UpdateHelpdeskUseCase', () => {
    it('returns the helpdesk as stored: a trimmed name, the default language kept first', async () => {
      const updated = await use(UpdateHelpdeskUseCase).execute({ name: '  Acme Help  ', languages: ['fr', 'en', 'fr', 'de'] });
      expect({ name: updated.name, languages: updated.languages }).toEqual({ name: 'Acme Help', languages: ['en', 'fr', 'de'] });
      expect(await rows('SELECT name, languages, updated_at AS "updatedAt" FROM helpdesks')).toEqual([
        { name: 'Acme Help', languages: ['en', 'fr', 'de'], updatedAt: updated.updatedAt },
      ]);
    });

    it('concurrent updates of the name and of the languages both last (the row is locked, each saves every field)', async () => {
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          use(UpdateHelpdeskUseCase).execute({ name: `Name ${round}` }),
          use(UpdateHelpdeskUseCase).execute({ languages: round % 2 === 0 ? ['en', 'fr'] : ['en', 'fr', 'de'] }),
        ]);
        expect(await rows('SELECT name, languages FROM helpdesks')).toEqual([{ name: `Name ${round}`, languages: round % 2 === 0 ? ['en', 'fr'] : ['en', 'fr', 'de'] }]);
      }
    });

    it('refuses languages without the default one and leaves the helpdesk as it was', async () => {
      const before = await rows('SELECT name, languages, updated_at FROM helpdesks');
      await expect(use(UpdateHelpdeskUseCase).execute({ name: 'Other', languages: ['fr'] })).rejects.toMatchObject({
        code: 'invalid_request',
        details: [expect.objectContaining({ field: 'languages' })],
      });
      expect(await rows('SELECT name, languages, updated_at FROM helpdesks')).toEqual(before);
    });
  });

  describe('CreateSectionUseCase and UpdateSectionUseCase: one default section', () => {
    it('concurrent creations with isDefault: true leave exactly one default, one of them', async () => {
      const created = await Promise.all([1, 2, 3, 4, 5].map((i) => use(CreateSectionUseCase).execute({ name: `Default ${i}`, isDefault: true })));
      const defaults = await rows<{ id: string }>('SELECT id FROM sections WHERE is_default');
      expect(defaults).toHaveLength(1);
      expect(created.map((s) => s.id)).toContain(defaults[0]!.id);
      // Every creation recorded itself, and every previous default recorded losing the flag.
      const recorded = await events();
      expect(recorded.filter(([type]) => type === 'section.created')).toHaveLength(5);
      expect(recorded.filter(([type]) => type === 'section.updated')).toHaveLength(5);
    });

    it('concurrent switches of the default leave exactly one default', async () => {
      const candidates = await Promise.all([1, 2, 3, 4].map((i) => use(CreateSectionUseCase).execute({ name: `Candidate ${i}` })));
      const results = await Promise.all(candidates.map((c) => settle(use(UpdateSectionUseCase).execute(c.id, { isDefault: true }))));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(await rows('SELECT count(*)::int AS n FROM sections WHERE is_default')).toEqual([{ n: 1 }]);
    });

    it('sections created at once without a position each go after the last one: distinct, consecutive positions', async () => {
      const [{ max }] = await rows<{ max: number }>('SELECT max(position) AS max FROM sections');
      const created = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) => use(CreateSectionUseCase).execute({ name: `Next ${i}`, ...(i % 3 === 0 ? { isDefault: true } : {}) })),
      );
      const positions = created.map((s) => s.snapshot().position).sort((a, b) => a - b);
      expect(positions).toEqual([1, 2, 3, 4, 5, 6].map((i) => max + i));
      const stored = await rows<{ position: number }>('SELECT position FROM sections WHERE id = ANY($1) ORDER BY position', [created.map((s) => s.id)]);
      expect(stored.map((r) => r.position)).toEqual(positions);
    });

    it('concurrent PUTs of one translation: one creates it, the others replace that same row', async () => {
      const section = await use(CreateSectionUseCase).execute({ name: 'Billing' });
      const results = await Promise.all(
        [1, 2, 3, 4].map((i) => use(PutSectionTranslationUseCase).execute(section.id, 'fr', { name: `Facturation ${i}` })),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.translation.id)).size).toBe(1);
      const stored = await rows<{ id: string; name: string }>('SELECT id, name FROM section_translations WHERE section_id = $1', [section.id]);
      expect(stored).toEqual([{ id: results[0]!.translation.id, name: expect.stringMatching(/^Facturation [1-4]$/) }]);
    });
  });

  describe('DeleteSectionUseCase', () => {
    it('refuses a section holding a collection, and the default section; deletes an empty one with its event', async () => {
      const section = await use(CreateSectionUseCase).execute({ name: 'Holds one' });
      const collection = await use(CreateCollectionUseCase).execute({ title: 'Inside', sectionId: section.id });
      await expect(use(DeleteSectionUseCase).execute(section.id)).rejects.toMatchObject({ code: 'invalid_state' });
      const [defaultSection] = await rows<{ id: string }>('SELECT id FROM sections WHERE is_default');
      await expect(use(DeleteSectionUseCase).execute(defaultSection!.id)).rejects.toMatchObject({ code: 'invalid_state' });

      await use(DeleteCollectionUseCase).execute(collection.id);
      await use(DeleteSectionUseCase).execute(section.id);
      expect(await rows('SELECT id FROM sections WHERE id = $1', [section.id])).toEqual([]);
      expect(await events()).toEqual([
        ['section.created', section.id],
        ['collection.created', collection.id],
        ['collection.deleted', collection.id],
        ['section.deleted', section.id],
      ]);
      await expect(use(DeleteSectionUseCase).execute(section.id)).rejects.toMatchObject({ code: 'not_found' });
    });

    it('racing a collection into a section being deleted: never both (the section is share-locked while it is filled)', async () => {
      for (let round = 0; round < 8; round++) {
        const section = await use(CreateSectionUseCase).execute({ name: `Race ${round}` });
        const [deleted, created] = await Promise.all([
          settle(use(DeleteSectionUseCase).execute(section.id)),
          settle(use(CreateCollectionUseCase).execute({ title: `Racer ${round}`, sectionId: section.id })),
        ]);
        // Either the delete came first (the collection is refused: no such section) or the collection did (the delete is refused).
        if (deleted.ok) expect(created).toEqual({ ok: false, code: 'invalid_request' });
        else expect([deleted.code, created.ok]).toEqual(['invalid_state', true]);
        const [{ sections, collections }] = await rows<{ sections: number; collections: number }>(
          `SELECT (SELECT count(*)::int FROM sections WHERE id = $1) AS sections,
                  (SELECT count(*)::int FROM collections WHERE section_id = $1) AS collections`,
          [section.id],
        );
        expect({ sections, collections }).toEqual(deleted.ok ? { sections: 0, collections: 0 } : { sections: 1, collections: 1 });
      }
    });
  });

  describe('MoveCollectionUseCase', () => {
    it('moves a collection with its subtree into another section; each collection that changed records its event', async () => {
      const from = await use(CreateSectionUseCase).execute({ name: 'From' });
      const to = await use(CreateSectionUseCase).execute({ name: 'To' });
      const root = await use(CreateCollectionUseCase).execute({ title: 'Root', sectionId: from.id });
      const child = await use(CreateCollectionUseCase).execute({ title: 'Child', parentCollectionId: root.id });
      const grandchild = await use(CreateCollectionUseCase).execute({ title: 'Grandchild', parentCollectionId: child.id });
      expect(grandchild.sectionId).toBe(from.id);
      await t.db.query('DELETE FROM outbox_events');

      const moved = await use(MoveCollectionUseCase).execute(root.id, { sectionId: to.id });
      expect({ sectionId: moved.sectionId, parentCollectionId: moved.parentCollectionId }).toEqual({ sectionId: to.id, parentCollectionId: null });
      expect(await rows('SELECT id, section_id AS "sectionId" FROM collections WHERE id = ANY($1) ORDER BY title', [[root.id, child.id, grandchild.id]])).toEqual([
        { id: child.id, sectionId: to.id },
        { id: grandchild.id, sectionId: to.id },
        { id: root.id, sectionId: to.id },
      ]);
      const recorded = await events();
      expect(recorded).toHaveLength(3);
      expect(recorded[0]).toEqual(['collection.updated', root.id]);
      expect(recorded.slice(1).map(([, id]) => id).sort()).toEqual([child.id, grandchild.id].sort());
      // The event carries the collection as the API returns it, after the move.
      const [payload] = await rows<{ data: { sectionId: string } }>(`SELECT data FROM outbox_events WHERE data->>'id' = $1`, [grandchild.id]);
      expect(payload!.data.sectionId).toBe(to.id);
    });

    it('refuses a move under the collection itself or one of its descendants, changing nothing', async () => {
      const root = await use(CreateCollectionUseCase).execute({ title: 'Cycle root' });
      const child = await use(CreateCollectionUseCase).execute({ title: 'Cycle child', parentCollectionId: root.id });
      for (const parent of [root.id, child.id]) {
        await expect(use(MoveCollectionUseCase).execute(root.id, { parentCollectionId: parent })).rejects.toMatchObject({
          code: 'invalid_request',
          details: [expect.objectContaining({ field: 'parent_collection_id' })],
        });
      }
      expect(await rows('SELECT parent_collection_id AS parent FROM collections WHERE id = $1', [root.id])).toEqual([{ parent: null }]);
    });

    it('two opposite moves at once (A under B, B under A) never make a cycle: the tree lock lets one through', async () => {
      for (let round = 0; round < 8; round++) {
        const a = await use(CreateCollectionUseCase).execute({ title: `A ${round}` });
        const b = await use(CreateCollectionUseCase).execute({ title: `B ${round}` });
        const results = await Promise.all([
          settle(use(MoveCollectionUseCase).execute(a.id, { parentCollectionId: b.id })),
          settle(use(MoveCollectionUseCase).execute(b.id, { parentCollectionId: a.id })),
        ]);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.find((r) => !r.ok)).toEqual({ ok: false, code: 'invalid_request' });
        const parents = await rows<{ id: string; parent: string | null }>('SELECT id, parent_collection_id AS parent FROM collections WHERE id = ANY($1)', [[a.id, b.id]]);
        expect(parents.filter((p) => p.parent !== null)).toHaveLength(1);
      }
    });
  });

  describe('collections: shortId and deletion', () => {
    it('a taken shortId is a conflict on create and update (the constraint read by the repository)', async () => {
      const first = await use(CreateCollectionUseCase).execute({ title: 'First', shortId: 'taken-id' });
      const second = await use(CreateCollectionUseCase).execute({ title: 'Second' });
      expect(second.shortId).toMatch(/^[2-9a-z]{7}$/);
      await expect(use(CreateCollectionUseCase).execute({ title: 'Third', shortId: 'taken-id' })).rejects.toMatchObject({ code: 'conflict' });
      await expect(use(UpdateCollectionUseCase).execute(second.id, { shortId: 'taken-id' })).rejects.toMatchObject({ code: 'conflict' });
      expect((await use(GetCollectionUseCase).execute(second.id)).shortId).toBe(second.shortId);
      expect(await rows('SELECT count(*)::int AS n FROM collections WHERE short_id = $1', ['taken-id'])).toEqual([{ n: 1 }]);
      expect(first.shortId).toBe('taken-id');
    });

    it('concurrent creations with one shortId: one is created, the others are conflicts', async () => {
      const results = await Promise.all([1, 2, 3, 4].map((i) => settle(use(CreateCollectionUseCase).execute({ title: `Same ${i}`, shortId: 'same-short-id' }))));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([1, 2, 3].map(() => ({ ok: false, code: 'conflict' })));
    });

    it('refuses to delete a collection with nested collections', async () => {
      const parent = await use(CreateCollectionUseCase).execute({ title: 'Parent' });
      const child = await use(CreateCollectionUseCase).execute({ title: 'Nested', parentCollectionId: parent.id });
      await expect(use(DeleteCollectionUseCase).execute(parent.id)).rejects.toMatchObject({ code: 'invalid_state' });
      await use(DeleteCollectionUseCase).execute(child.id);
      await use(DeleteCollectionUseCase).execute(parent.id);
      await expect(use(GetCollectionUseCase).execute(parent.id)).rejects.toMatchObject({ code: 'not_found' });
    });
  });
});

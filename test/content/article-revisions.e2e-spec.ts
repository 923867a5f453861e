import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { applyPatch } from 'diff';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { errorBody } from '../support/errors.js';
import { ISO_MS, REVISION_ID, ULID, UNKNOWN_ARTICLE } from '../support/formats.js';
import { outcome } from '../support/outcome.js';
import { defaultSectionId } from '../support/sections.js';

jest.setTimeout(60_000);

const KEY_ID = new RegExp(`^key_${ULID}$`);
const UNKNOWN_REVISION = 'rev_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const SUMMARY_KEYS = ['articleId', 'createdAt', 'createdByKeyId', 'id', 'title', 'version'];
const DIFF_KEYS = ['addedLines', 'articleId', 'changed', 'diff', 'from', 'removedLines', 'to', 'truncated'];

interface Revision {
  id: string;
  articleId: string;
  version: number;
  title: string;
  createdByKeyId: string | null;
  createdAt: string;
  contentHtml?: string;
  contentMarkdown?: string;
  contentJson?: unknown;
}

interface Diff {
  articleId: string;
  from: { revisionId: string; version: number };
  to: { revisionId: string; version: number };
  changed: boolean;
  diff: string;
  addedLines: number;
  removedLines: number;
  truncated: boolean;
}

describe('article revisions', () => {
  let t: TestApp;
  let db: pg.Client;
  let reader: string;
  let writer: string;
  let editor: string;
  let general: string;
  /** Created as v1 (draft), PATCHed (v2: new body), published (v3: same content as v2). */
  let articleId: string;
  let revisions: Revision[];

  async function create(body: Record<string, unknown>): Promise<{ id: string; draft_id: string | null }> {
    const res = await t.http.post('/v1/articles').set(bearer(editor)).send({ sectionId: general, ...body });
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body;
  }

  async function call(path: string, key = editor, query: Record<string, string> = {}): Promise<Response> {
    return t.http.get(`/v1/articles/${path}`).query(query).set(bearer(key));
  }

  async function ok<T>(path: string, key = editor, query: Record<string, string> = {}): Promise<T> {
    const res = await call(path, key, query);
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res.body as T;
  }

  async function listed(id: string, key = editor): Promise<Revision[]> {
    return (await ok<{ results: Revision[] }>(`${id}/revisions`, key, { page_size: '100' })).results;
  }

  beforeAll(async () => {
    t = await startTestApp({ env: NO_LIMITS });
    reader = await t.key(['content:read']);
    writer = await t.key(['content:write']);
    editor = await t.key(['content:write', 'content:publish']);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    general = await defaultSectionId(t, reader);

    articleId = (await create({ title: 'Revised article', markdown: 'First line\n\nSecond line\n\nThird line' })).id;
    await t.http.patch(`/v1/articles/${articleId}`).set(bearer(writer)).send({ markdown: 'First line\n\nSecond line, changed\n\nThird line\n\nFourth line' }).expect(200);
    await t.http.post(`/v1/articles/${articleId}/publish`).set(bearer(editor)).expect(200);
    revisions = await listed(articleId);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('GET /v1/articles/:id/revisions', () => {
    it('versions go 1, 2, 3 over create, PATCH and publish; listed newest first', async () => {
      expect(revisions.map((r) => r.version)).toEqual([3, 2, 1]);
      for (const revision of revisions) {
        expect(Object.keys(revision).sort()).toEqual(SUMMARY_KEYS);
        expect(revision).toEqual({
          id: expect.stringMatching(REVISION_ID),
          articleId,
          version: expect.any(Number),
          title: 'Revised article',
          createdByKeyId: expect.stringMatching(KEY_ID),
          createdAt: expect.stringMatching(ISO_MS),
        });
      }
      // v2 was written with the writer key, v1 and v3 with the editor key.
      expect(revisions[0]!.createdByKeyId).toBe(revisions[2]!.createdByKeyId);
      expect(revisions[1]!.createdByKeyId).not.toBe(revisions[0]!.createdByKeyId);
      const stored = (await db.query('SELECT id, version FROM article_revisions WHERE article_id = $1 ORDER BY version DESC', [articleId])).rows;
      expect(stored).toEqual(revisions.map((r) => ({ id: r.id, version: r.version })));
      const [article] = (await db.query('SELECT live_revision_id, latest_version FROM articles WHERE id = $1', [articleId])).rows;
      expect(article).toEqual({ live_revision_id: revisions[0]!.id, latest_version: 3 });
    });

    it('cursor pagination: page_size 1 walks newest to oldest, each once', async () => {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { results: Revision[]; has_more: boolean; next_cursor: string | null } = await ok(`${articleId}/revisions`, editor, {
          page_size: '1',
          ...(cursor ? { start_cursor: cursor } : {}),
        });
        expect(Object.keys(page).sort()).toEqual(['has_more', 'next_cursor', 'results']);
        expect(page.has_more).toBe(page.next_cursor !== null);
        seen.push(...page.results.map((r) => r.version));
        cursor = page.next_cursor;
        pages += 1;
        expect(pages).toBeLessThan(10);
      } while (cursor);
      expect(seen).toEqual([3, 2, 1]);
      expect(outcome(await call(`${articleId}/revisions`, editor, { page_size: '0' }))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      expect(outcome(await call(`${articleId}/revisions`, editor, { start_cursor: 'nope' }))).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } });
    });

    it('many quick edits still list in version order, newest first', async () => {
      const { id } = await create({ title: 'Quick edits', markdown: 'v1' });
      for (let i = 2; i <= 12; i++) await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: `v${i}` }).expect(200);
      const all = await listed(id);
      expect(all.map((r) => r.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    });

    it('a title-only PATCH and a no-op publish: a title change is a revision, a no-op publish is not', async () => {
      const { id } = await create({ title: 'Counted', markdown: 'body', publish: true });
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ title: 'Counted, renamed' }).expect(200);
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ keywords: 'seo only' }).expect(200);
      await t.http.post(`/v1/articles/${id}/publish`).set(bearer(editor)).expect(200);
      await t.http.post(`/v1/articles/${id}/publish`).set(bearer(editor)).expect(200);
      expect((await listed(id)).map((r) => [r.version, r.title])).toEqual([
        [3, 'Counted, renamed'],
        [2, 'Counted, renamed'],
        [1, 'Counted'],
      ]);
    });

    it('unknown article → 404; a content:read key sees revisions of published articles only', async () => {
      expect((await call(`${UNKNOWN_ARTICLE}/revisions`)).status).toBe(404);
      const { id } = await create({ title: 'Draft with revisions' });
      expect(outcome(await call(`${id}/revisions`, reader))).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(outcome(await call(`${id}/revisions/1`, reader))).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(outcome(await call(`${id}/revisions/1/diff`, reader, { against: '1' }))).toMatchObject({ status: 404, body: { code: 'not_found' } });
      // Of a published article, only the revisions readers could see at some time: version 3 went live; 1 and 2
      // were written before the first publication and never were.
      expect((await listed(articleId, reader)).map((r) => r.version)).toEqual([3]);
      expect((await listed(articleId, editor)).map((r) => r.version)).toEqual([3, 2, 1]);
      for (const ref of ['1', '2', revisions[2]!.id]) {
        expect(outcome(await call(`${articleId}/revisions/${ref}`, reader))).toMatchObject({ status: 404, body: { code: 'not_found' } });
        expect(outcome(await call(`${articleId}/revisions/3/diff`, reader, { against: ref }))).toMatchObject({ status: 404, body: { code: 'not_found' } });
      }
      expect(outcome(await call(`${articleId}/revisions/3`, reader))).toMatchObject({ status: 200 });
    });

    it('read-only keys see every revision that went live, and no draft saved between publications', async () => {
      const { id } = await create({ title: 'Published twice', markdown: 'v1', publish: true });
      const write = async (request: ReturnType<typeof t.http.post>) => expect(outcome(await request)).toMatchObject({ status: 200 });
      await write(t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: 'v2 draft' }));
      await write(t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: 'v3 draft' }));
      await write(t.http.post(`/v1/articles/${id}/publish`).set(bearer(editor)));
      await write(t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: 'v5 pending draft' }));
      expect((await listed(id, editor)).map((r) => r.version)).toEqual([5, 4, 3, 2, 1]);
      expect((await listed(id, reader)).map((r) => r.version)).toEqual([4, 1]);
      const diff = await ok<Diff>(`${id}/revisions/4/diff`, reader, { against: '1' });
      expect(diff).toMatchObject({ from: { version: 1 }, to: { version: 4 }, changed: true });
      expect(diff.diff).not.toContain('v2 draft');
      for (const version of ['2', '3', '5']) expect((await call(`${id}/revisions/${version}`, reader)).status).toBe(404);
    });
  });

  describe('GET /v1/articles/:id/revisions/:revisionId', () => {
    it('by revision ID and by version number: the same revision, content in the asked format', async () => {
      const v1 = revisions[2]!;
      const byId = await ok<Revision>(`${articleId}/revisions/${v1.id}`);
      const byVersion = await ok<Revision>(`${articleId}/revisions/1`);
      expect(byVersion).toEqual(byId);
      expect(Object.keys(byId).sort()).toEqual([...SUMMARY_KEYS, 'contentHtml'].sort());
      expect(byId).toMatchObject({ ...v1, contentHtml: expect.stringContaining('Second line') });
      expect(byId.contentHtml).not.toContain('changed');

      const md = await ok<Revision>(`${articleId}/revisions/2`, editor, { format: 'markdown' });
      expect(Object.keys(md).sort()).toEqual([...SUMMARY_KEYS, 'contentMarkdown'].sort());
      expect(md).toMatchObject({ id: revisions[1]!.id, version: 2 });
      expect(md.contentMarkdown).toContain('Second line, changed');
      expect(md.contentMarkdown).toContain('Fourth line');

      const json = await ok<Revision>(`${articleId}/revisions/${revisions[0]!.id}`, editor, { format: 'json' });
      expect(Object.keys(json).sort()).toEqual([...SUMMARY_KEYS, 'contentJson'].sort());
      const [row] = (await db.query('SELECT content_json FROM article_revisions WHERE id = $1', [revisions[0]!.id])).rows;
      expect(json.contentJson).toEqual(row.content_json);
      expect(outcome(await call(`${articleId}/revisions/1`, editor, { format: 'pdf' }))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });

    it.each([
      ['an unknown revision ID', UNKNOWN_REVISION],
      ['a version that does not exist', '4'],
      ['version 0', '0'],
      ['a version beyond the integer range', '99999999999'],
      ['something that is neither', 'latest'],
    ])('%s → 404 not_found', async (_label, ref) => {
      expect(outcome(await call(`${articleId}/revisions/${ref}`))).toEqual({ status: 404, body: errorBody('not_found') });
    });

    it("another article's revision ID → 404; unknown article → 404", async () => {
      const { id } = await create({ title: 'Other article' });
      expect((await call(`${id}/revisions/${revisions[0]!.id}`)).status).toBe(404);
      expect((await call(`${UNKNOWN_ARTICLE}/revisions/1`)).status).toBe(404);
    });
  });

  describe('GET /v1/articles/:id/revisions/:revisionId/diff', () => {
    it('against a version number: from/to, changed, a unified diff with the changed lines, line counts', async () => {
      const [v3, v2, v1] = revisions as [Revision, Revision, Revision];
      const diff = await ok<Diff>(`${articleId}/revisions/${v2.id}/diff`, editor, { against: '1' });
      expect(Object.keys(diff).sort()).toEqual(DIFF_KEYS);
      expect(diff).toMatchObject({
        articleId,
        from: { revisionId: v1.id, version: 1 },
        to: { revisionId: v2.id, version: 2 },
        changed: true,
        truncated: false,
      });
      expect(Object.keys(diff.from).sort()).toEqual(['revisionId', 'version']);
      const lines = diff.diff.split('\n');
      expect(lines).toContain('-Second line');
      expect(lines).toContain('+Second line, changed');
      expect(lines).toContain('+Fourth line');
      expect(lines).toContain(' First line');
      expect(lines.some((l) => l.startsWith('@@ '))).toBe(true);
      expect(lines.some((l) => l.startsWith('---'))).toBe(true);
      expect(lines.some((l) => l.startsWith('+++'))).toBe(true);
      // "Second line" became "Second line, changed"; "Fourth line" and its blank line were added.
      const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
      const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).length;
      expect({ addedLines: diff.addedLines, removedLines: diff.removedLines }).toEqual({ addedLines: added, removedLines: removed });
      expect(diff.removedLines).toBe(1);
      expect(diff.addedLines).toBeGreaterThanOrEqual(2);
      expect(v3.version).toBe(3);
    });

    it('against a revision ID, and the path revision given as a version number: the same diff', async () => {
      const [, v2, v1] = revisions as [Revision, Revision, Revision];
      const byVersion = await ok<Diff>(`${articleId}/revisions/${v2.id}/diff`, editor, { against: '1' });
      expect(await ok<Diff>(`${articleId}/revisions/${v2.id}/diff`, editor, { against: v1.id })).toEqual(byVersion);
      expect(await ok<Diff>(`${articleId}/revisions/2/diff`, editor, { against: v1.id })).toEqual(byVersion);
      // Versions 1 and 2 were never live: a read-only key cannot diff them.
      expect((await call(`${articleId}/revisions/2/diff`, reader, { against: '1' })).status).toBe(404);
    });

    it('the other way round: the added lines become removed ones', async () => {
      const forward = await ok<Diff>(`${articleId}/revisions/2/diff`, editor, { against: '1' });
      const backward = await ok<Diff>(`${articleId}/revisions/1/diff`, editor, { against: '2' });
      expect(backward).toMatchObject({ from: { version: 2 }, to: { version: 1 }, changed: true, addedLines: forward.removedLines, removedLines: forward.addedLines });
      expect(backward.diff.split('\n')).toContain('+Second line');
    });

    it('identical content → changed false, no hunks, zero counts (the publish copied the draft)', async () => {
      const diff = await ok<Diff>(`${articleId}/revisions/3/diff`, editor, { against: '2' });
      expect(diff).toMatchObject({ from: { version: 2 }, to: { version: 3 }, changed: false, addedLines: 0, removedLines: 0, truncated: false });
      expect(diff.diff).not.toContain('@@');
      const self = await ok<Diff>(`${articleId}/revisions/1/diff`, editor, { against: '1' });
      expect(self).toMatchObject({ changed: false, addedLines: 0, removedLines: 0 });
    });

    it('a title change shows in the diff', async () => {
      const { id } = await create({ title: 'Old heading', markdown: 'Same body' });
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ title: 'New heading' }).expect(200);
      const diff = await ok<Diff>(`${id}/revisions/2/diff`, editor, { against: '1' });
      expect(diff).toMatchObject({ changed: true, addedLines: 1, removedLines: 1 });
      expect(diff.diff).toContain('-# Old heading');
      expect(diff.diff).toContain('+# New heading');
    });

    it('a diff over 20 000 lines is cut there, one over 1 MiB at 1 MiB: truncated true, the counts stay whole', async () => {
      const block = (prefix: string, lines: number, width = 0) => ({
        type: 'doc',
        content: [{ type: 'code_block', attrs: { language: null }, content: [{ type: 'text', text: Array.from({ length: lines }, (_, i) => `${prefix} ${i}`.padEnd(width, '.')).join('\n') }] }],
      });
      const { id } = await create({ title: 'Long lines', content: block('old', 12_000) });
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ content: block('new', 12_000) }).expect(200);
      const long = await ok<Diff>(`${id}/revisions/2/diff`, editor, { against: '1' });
      expect(long).toMatchObject({ changed: true, truncated: true, addedLines: 12_000, removedLines: 12_000 });
      expect(long.diff.split('\n').length).toBeLessThanOrEqual(20_000);
      expect(long.diff.split('\n')).toContain('-old 0');

      const wide = (await create({ title: 'Wide lines', content: block('old', 3_000, 400) })).id;
      await t.http.patch(`/v1/articles/${wide}`).set(bearer(editor)).send({ content: block('new', 3_000, 400) }).expect(200);
      const big = await ok<Diff>(`${wide}/revisions/2/diff`, editor, { against: '1' });
      expect(big).toMatchObject({ changed: true, truncated: true, addedLines: 3_000, removedLines: 3_000 });
      expect(big.diff.split('\n').length).toBeLessThan(6_000);
      expect(Buffer.byteLength(big.diff)).toBeLessThanOrEqual(1024 * 1024);
      expect(Buffer.byteLength(big.diff)).toBeGreaterThan(1024 * 1024 - 1000);
      // Cut at a line end, never inside a line.
      for (const line of big.diff.split('\n').slice(4)) {
        if (line !== '') expect(line).toMatch(/^[-+ @]/);
      }

      const short = await ok<Diff>(`${articleId}/revisions/2/diff`, editor, { against: '1' });
      expect(short.truncated).toBe(false);
    });

    it('the diff text is a patch that turns the older revision into the newer, also for wholly rewritten long articles', async () => {
      const text = async (id: string, version: number) => {
        const revision = await ok<Revision>(`${id}/revisions/${version}`, editor, { format: 'markdown' });
        const body = revision.contentMarkdown!.endsWith('\n') ? revision.contentMarkdown! : `${revision.contentMarkdown!}\n`;
        return `# ${revision.title}\n\n${body}`;
      };
      const lines = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} line ${i}`).join('\n\n');
      const { id } = await create({ title: 'Rewritten', markdown: `Intro\n\n${lines('old', 1_500)}\n\nOutro` });
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: `Intro\n\n${lines('new', 1_600)}\n\nOutro` }).expect(200);
      await t.http.patch(`/v1/articles/${id}`).set(bearer(editor)).send({ markdown: `Intro\n\n${lines('new', 1_600)}\n\nOutro, edited` }).expect(200);
      // v4 only inserts (over 1 000 paragraphs): one side of the change is empty.
      await t.http
        .patch(`/v1/articles/${id}`)
        .set(bearer(editor))
        .send({ markdown: `Intro\n\n${lines('new', 1_600)}\n\n${lines('inserted', 1_100)}\n\nOutro, edited` })
        .expect(200);
      for (const [older, newer] of [[1, 2], [2, 3], [1, 3], [3, 1], [3, 4], [4, 3], [1, 4]] as const) {
        const diff = await ok<Diff>(`${id}/revisions/${newer}/diff`, editor, { against: String(older) });
        expect(diff.truncated).toBe(false);
        expect(applyPatch(await text(id, older), diff.diff)).toBe(await text(id, newer));
        const body = diff.diff.split('\n').filter((l) => !l.startsWith('---') && !l.startsWith('+++'));
        expect({ addedLines: diff.addedLines, removedLines: diff.removedLines }).toEqual({
          addedLines: body.filter((l) => l.startsWith('+')).length,
          removedLines: body.filter((l) => l.startsWith('-')).length,
        });
      }
      // The unchanged first and last lines are not part of the change.
      const rewritten = await ok<Diff>(`${id}/revisions/2/diff`, editor, { against: '1' });
      expect(rewritten.diff).not.toContain('-Intro');
      expect(rewritten.diff).not.toContain('-# Rewritten');
      expect(rewritten.removedLines).toBe(1_500 * 2 - 1);
      expect(rewritten.addedLines).toBe(1_600 * 2 - 1);
      expect(applyPatch(await text(articleId, 1), (await ok<Diff>(`${articleId}/revisions/2/diff`, editor, { against: '1' })).diff)).toBe(await text(articleId, 2));
    });

    it('missing or empty against → 400 invalid_request', async () => {
      for (const query of [{}, { against: '' }] as Array<Record<string, string>>) {
        expect(outcome(await call(`${articleId}/revisions/2/diff`, editor, query))).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
      }
    });

    it.each([
      ['an unknown revision in the path', `${UNKNOWN_REVISION}/diff`, '1'],
      ['an unknown version in the path', '9/diff', '1'],
      ['an unknown against revision', '2/diff', UNKNOWN_REVISION],
      ['an unknown against version', '2/diff', '9'],
      ['an against version beyond the integer range', '2/diff', '99999999999'],
    ])('%s → 404 not_found', async (_label, path, against) => {
      expect(outcome(await call(`${articleId}/revisions/${path}`, editor, { against }))).toEqual({ status: 404, body: errorBody('not_found') });
    });

    it('unknown article → 404', async () => {
      expect((await call(`${UNKNOWN_ARTICLE}/revisions/2/diff`, editor, { against: '1' })).status).toBe(404);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { NotFoundError, Principal, ValidationError } from '#core';
import { ContentModule, CreateArticleUseCase, PublishArticleUseCase, TrashArticleUseCase } from '#content';
import {
  CreateHelpCenterUserUseCase,
  FeedbackModule,
  GetFeedbackSummaryUseCase,
  HelpCenterUserEmailTakenError,
  ResolveFeedbackUseCase,
  SubmitFeedbackUseCase,
  UpdateHelpCenterUserUseCase,
} from '#feedback';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The feedback use cases below HTTP: FeedbackModule (with ContentModule, whose articles it reads) and its SQL
// adapters against a PostgreSQL database of this file's own.

jest.setTimeout(60_000);

const writer = new Principal('key_writer', ['content:write']);
const publisher = new Principal('key_publisher', ['content:write', 'content:publish']);
/** A key for analytics only: it sees published articles and no drafts. */
const analyst = new Principal('key_analyst', ['analytics:read']);
const analystWriter = new Principal('key_analyst_writer', ['analytics:read', 'content:write']);

interface OutboxRow {
  type: string;
  data: Record<string, unknown>;
}

describe('feedback use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;
  let sectionId: string;
  let n = 0;

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);
  const unique = (word: string) => `${word} ${process.pid}-${++n}`;

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => t.rows<T>(sql, params);

  /** The error a promise rejects with (fails when it resolves). */
  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  async function article(title: string, publish: boolean): Promise<string> {
    const created = await use(CreateArticleUseCase).execute({ title, markdown: 'How it works.', sectionId }, writer);
    if (publish) await use(PublishArticleUseCase).execute(created.record.props.id, publisher.keyId);
    return created.record.props.id;
  }

  async function events(type: string, feedbackId: string): Promise<OutboxRow[]> {
    return rows<OutboxRow>("SELECT type, data FROM outbox_events WHERE type = $1 AND data->>'id' = $2 ORDER BY id", [type, feedbackId]);
  }

  beforeAll(async () => {
    t = await createUseCaseModule([ContentModule, FeedbackModule]);
    [{ id: sectionId }] = await rows<{ id: string }>('SELECT id FROM sections WHERE is_default');
  });
  afterAll(() => t?.close());

  describe('submit public feedback', () => {
    it('stores it with the title of that moment, announces it with the matched user in the same transaction, and gives the reader only the receipt', async () => {
      const title = unique('Reset your password');
      const articleId = await article(title, true);
      const user = await use(CreateHelpCenterUserUseCase).execute({ email: `Jane.${n}@Example.com`, name: ' Jane ' });
      expect(user).toMatchObject({ email: `jane.${n}@example.com`, name: 'Jane' });

      const receipt = await use(SubmitFeedbackUseCase).execute(articleId, { type: 'negative', feedback: '  The screenshots are old.  ', email: `JANE.${n}@example.COM ` });
      expect(receipt).toEqual({ id: expect.stringMatching(/^fb_/), createdAt: expect.any(String) });

      const [stored] = await rows('SELECT article_id, article_title, type, feedback, email, resolved, created_at FROM feedback WHERE id = $1', [receipt.id]);
      expect(stored).toEqual({
        article_id: articleId,
        article_title: title,
        type: 'negative',
        feedback: 'The screenshots are old.',
        email: user.email,
        resolved: false,
        created_at: new Date(receipt.createdAt),
      });
      const [created] = await events('feedback.created', receipt.id);
      expect(created!.data).toEqual({
        id: receipt.id,
        articleId,
        articleTitle: title,
        type: 'negative',
        feedback: 'The screenshots are old.',
        email: user.email,
        resolved: false,
        createdAt: receipt.createdAt,
        user: { id: user.id, name: 'Jane', email: user.email },
      });
    });

    it('is refused for a draft or unknown article and for empty text, storing nothing', async () => {
      const draft = await article(unique('Draft'), false);
      const before = await rows('SELECT id FROM feedback');
      expect(await failure(use(SubmitFeedbackUseCase).execute(draft, { type: 'positive', feedback: 'Nice' }))).toBeInstanceOf(NotFoundError);
      expect(await failure(use(SubmitFeedbackUseCase).execute('art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', { type: 'positive', feedback: 'Nice' }))).toBeInstanceOf(NotFoundError);
      const published = await article(unique('Published'), true);
      const empty = await failure(use(SubmitFeedbackUseCase).execute(published, { type: 'positive', feedback: '   ' }));
      expect(empty).toBeInstanceOf(ValidationError);
      expect(empty).toMatchObject({ details: [{ field: 'feedback' }] });
      expect(await rows('SELECT id FROM feedback')).toEqual(before);
    });
  });

  describe('summary', () => {
    it('counts an article the key may see; a draft is not found for a key without content:write, a trashed article for any', async () => {
      const draft = await article(unique('Unreleased feature'), false);
      const notFound = await failure(use(GetFeedbackSummaryUseCase).execute(draft, analyst));
      expect(notFound).toBeInstanceOf(NotFoundError);
      // A key that also has content:write sees the draft (which has no feedback).
      expect(await use(GetFeedbackSummaryUseCase).execute(draft, analystWriter)).toEqual({ positive: 0, negative: 0, unresolved: 0 });

      const published = await article(unique('Billing'), true);
      const first = await use(SubmitFeedbackUseCase).execute(published, { type: 'positive', feedback: 'Clear' });
      await use(SubmitFeedbackUseCase).execute(published, { type: 'negative', feedback: 'Too long' });
      await use(SubmitFeedbackUseCase).execute(published, { type: 'negative', feedback: 'Missing a step' });
      await use(ResolveFeedbackUseCase).execute(first.id, true);
      expect(await use(GetFeedbackSummaryUseCase).execute(published, analyst)).toEqual({ positive: 1, negative: 2, unresolved: 2 });

      await use(TrashArticleUseCase).execute(published);
      expect(await failure(use(GetFeedbackSummaryUseCase).execute(published, analystWriter))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('resolve', () => {
    it('announces a change once, however many resolve it at once; resolving it again changes nothing', async () => {
      const articleId = await article(unique('Shipping'), true);
      const { id } = await use(SubmitFeedbackUseCase).execute(articleId, { type: 'negative', feedback: 'Wrong carrier' });

      const all = await Promise.all(Array.from({ length: 5 }, () => use(ResolveFeedbackUseCase).execute(id, true)));
      expect(all).toEqual(Array.from({ length: 5 }, () => ({ id, resolved: true })));
      const updated = await events('feedback.updated', id);
      expect(updated).toHaveLength(1);
      expect(updated[0]!.data).toMatchObject({ id, resolved: true, feedback: 'Wrong carrier', user: null });

      await use(ResolveFeedbackUseCase).execute(id, true);
      expect(await events('feedback.updated', id)).toHaveLength(1);
      await use(ResolveFeedbackUseCase).execute(id, false);
      expect((await events('feedback.updated', id)).map((e) => e.data.resolved)).toEqual([true, false]);
      expect(await failure(use(ResolveFeedbackUseCase).execute('fb_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', true))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('help center users', () => {
    it('one user per email, whatever its case, also when created at once; an update to a taken email is refused', async () => {
      const email = `race.${process.pid}.${++n}@example.com`;
      const outcomes = await Promise.allSettled([
        use(CreateHelpCenterUserUseCase).execute({ email }),
        use(CreateHelpCenterUserUseCase).execute({ email: email.toUpperCase() }),
        use(CreateHelpCenterUserUseCase).execute({ email: ` ${email} ` }),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
        expect(o.reason).toBeInstanceOf(HelpCenterUserEmailTakenError);
        expect(o.reason).toMatchObject({ code: 'conflict' });
      }
      expect(await rows('SELECT email FROM help_center_users WHERE email = $1', [email])).toEqual([{ email }]);

      const other = await use(CreateHelpCenterUserUseCase).execute({ email: `other.${process.pid}.${++n}@example.com`, name: 'Other' });
      expect(await failure(use(UpdateHelpCenterUserUseCase).execute(other.id, { email: email.toUpperCase() }))).toBeInstanceOf(HelpCenterUserEmailTakenError);
      const renamed = await use(UpdateHelpCenterUserUseCase).execute(other.id, { name: null });
      expect(renamed).toMatchObject({ id: other.id, email: other.email, name: null });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(other.updatedAt));
    });
  });
});

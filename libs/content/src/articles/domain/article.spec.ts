import { describe, expect, it } from '@jest/globals';
import { InvalidStateError, ValidationError } from '#core/domain';
import { Article, type ArticleContent, type ArticleRevision } from './article.js';

const T0 = new Date('2026-11-22T10:00:00.000Z');
const T1 = new Date('2026-11-22T10:05:00.000Z');
const T2 = new Date('2026-11-22T10:10:00.000Z');
const T3 = new Date('2026-11-22T10:15:00.000Z');
const T4 = new Date('2026-11-22T10:20:00.000Z');
const HELPDESK = 'help_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const SECTION = 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const OTHER_SECTION = 'sect_01JD3Q7W6S1X0Y2Z3A4B5C6D7F';
const COLLECTION = 'col_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const KEY = 'key_01JD3Q7W6S1X0Y2Z3A4B5C6D7E';
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';

function content(text: string): ArticleContent {
  return {
    json: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
    markdown: `${text}\n`,
    html: `<p>${text}</p>`,
  };
}

function draftArticle(seo: { ogImage?: string | null } = {}): Article {
  return Article.create(
    { helpdeskId: HELPDESK, sectionId: SECTION, collectionId: null, slug: 'reset-your-password', customSlug: false, keywords: null, metaDescription: null, ogImage: seo.ogImage ?? null },
    T0,
  );
}

/** A draft article with its first revision (what creating an article records). */
function withFirstRevision(): { article: Article; first: ArticleRevision } {
  const article = draftArticle();
  const first = article.addRevision('Reset your password', content('First'), KEY, T0);
  return { article, first };
}

/** A published article: a draft revision, then the revision that went live (publishing records a new version). */
function published(): { article: Article; live: ArticleRevision } {
  const { article, first } = withFirstRevision();
  const live = article.addRevision(first.title, first.content, KEY, T1);
  article.publish(live, T1);
  return { article, live };
}

/** The error `work` throws, checked to be of `type`. */
function refusal<E extends Error>(type: abstract new (...args: never[]) => E, work: () => unknown): E {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}`);
}

describe('Article.create', () => {
  it('makes a draft with no revision yet, nothing live and nothing published', () => {
    const article = draftArticle();
    expect(article.id).toMatch(new RegExp(`^art_${ULID}$`));
    expect(article.status).toBe('draft');
    expect(article.snapshot()).toEqual({
      id: article.id,
      helpdeskId: HELPDESK,
      sectionId: SECTION,
      collectionId: null,
      slug: 'reset-your-password',
      customSlug: false,
      keywords: null,
      metaDescription: null,
      ogImage: null,
      status: 'draft',
      statusBeforeTrash: null,
      latestVersion: 0,
      currentRevisionId: null,
      liveRevisionId: null,
      publishedAt: null,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('gives every article its own ID', () => {
    expect(draftArticle().id).not.toBe(draftArticle().id);
  });

  it('accepts an absolute http(s) ogImage and refuses any other one (ValidationError on ogImage)', () => {
    for (const ogImage of ['https://cdn.example.com/og.png', 'http://example.com/og.png']) expect(draftArticle({ ogImage }).snapshot().ogImage).toBe(ogImage);
    for (const ogImage of ['javascript:alert(1)', '/og.png', 'og.png', 'ftp://example.com/og.png', 'https://user:secret@example.com/og.png', 'data:image/png;base64,AAAA']) {
      const error = refusal(ValidationError, () => draftArticle({ ogImage }));
      expect({ ogImage, code: error.code, details: error.details }).toEqual({
        ogImage,
        code: 'invalid_request',
        details: [{ field: 'ogImage', message: 'ogImage must be an absolute http(s) URL' }],
      });
    }
  });
});

describe('revisions', () => {
  it('numbers the versions of an article 1, 2, 3, … and records who wrote each, when, never live', () => {
    const article = draftArticle();
    const first = article.addRevision('Title', content('One'), KEY, T1);
    const second = article.addRevision('Title 2', content('Two'), null, T2);
    expect(first).toEqual({
      id: expect.stringMatching(new RegExp(`^rev_${ULID}$`)),
      articleId: article.id,
      version: 1,
      title: 'Title',
      content: content('One'),
      createdByKeyId: KEY,
      createdAt: T1,
      wentLiveAt: null,
    });
    expect(second).toMatchObject({ version: 2, title: 'Title 2', createdByKeyId: null, createdAt: T2, wentLiveAt: null });
    expect(second.id).not.toBe(first.id);
    expect(article.snapshot()).toMatchObject({ latestVersion: 2, updatedAt: T2 });
  });

  it('shows the newest revision of an article that is not live', () => {
    const { article } = withFirstRevision();
    const next = article.addRevision('Edited', content('Edited'), KEY, T1);
    expect(article.currentRevisionId).toBe(next.id);
    expect(article.liveRevisionId).toBeNull();
    expect(article.status).toBe('draft');
  });

  it('keeps counting across publish, pending drafts, unpublish and restore: a version number is never reused', () => {
    const { article, live } = published();
    const pending = article.addRevision('Pending', content('Pending'), KEY, T2);
    article.unpublish(T2);
    article.trash(T3);
    article.restore(T3);
    const after = article.addRevision('After restore', content('After'), KEY, T4);
    expect([live.version, pending.version, after.version]).toEqual([2, 3, 4]);
    expect(article.snapshot().latestVersion).toBe(4);
  });
});

describe('publish', () => {
  it('makes the revision live and shown, and stamps publishedAt', () => {
    const { article, live } = published();
    expect(article.status).toBe('published');
    expect(article.liveRevisionId).toBe(live.id);
    expect(article.currentRevisionId).toBe(live.id);
    expect(article.snapshot()).toMatchObject({ publishedAt: T1, updatedAt: T1, latestVersion: 2 });
  });

  it('records the went-live facts on the article, not on the revision: the live revision and when (the adapter stamps went_live_at from them)', () => {
    const { article, first } = withFirstRevision();
    const live = article.addRevision(first.title, first.content, KEY, T1);
    article.publish(live, T1);
    // The revision object stays as recorded; what went live, and when, is the article's live revision and updatedAt.
    expect(first.wentLiveAt).toBeNull();
    expect(live.wentLiveAt).toBeNull();
    expect(article.snapshot()).toMatchObject({ liveRevisionId: live.id, updatedAt: T1, publishedAt: T1 });
  });

  it('publishing again (a pending draft) moves the live revision and publishedAt to the new one', () => {
    const { article, live } = published();
    const pending = article.addRevision('Better title', content('Better'), KEY, T2);
    const next = article.addRevision(pending.title, pending.content, KEY, T3);
    article.publish(next, T3);
    expect(next.version).toBe(live.version + 2);
    expect(article.liveRevisionId).toBe(next.id);
    expect(article.currentRevisionId).toBe(next.id);
    expect(article.snapshot()).toMatchObject({ status: 'published', publishedAt: T3, updatedAt: T3 });
  });
});

describe('updating a published article', () => {
  it('records a pending draft revision while readers keep seeing the live one', () => {
    const { article, live } = published();
    const pending = article.addRevision('Draft title', content('Draft'), KEY, T2);
    expect(pending).toMatchObject({ version: live.version + 1, wentLiveAt: null });
    expect(article.status).toBe('published');
    expect(article.liveRevisionId).toBe(live.id);
    expect(article.currentRevisionId).toBe(live.id);
    expect(article.snapshot()).toMatchObject({ publishedAt: T1, updatedAt: T2 });
  });
});

describe('discarding a draft', () => {
  it('shows the live revision again (show with a time stamps updatedAt)', () => {
    const { article, live } = published();
    article.addRevision('Draft', content('Draft'), KEY, T2);
    article.unpublish(T2);
    const draft = article.addRevision('Draft 2', content('Draft 2'), KEY, T3);
    expect(article.currentRevisionId).toBe(draft.id);
    article.show(live.id, T4);
    expect(article.currentRevisionId).toBe(live.id);
    expect(article.snapshot()).toMatchObject({ status: 'draft', liveRevisionId: null, updatedAt: T4 });
  });

  it('show without a time leaves updatedAt alone', () => {
    const { article, first } = withFirstRevision();
    article.addRevision('Second', content('Second'), KEY, T1);
    article.show(first.id);
    expect(article.currentRevisionId).toBe(first.id);
    expect(article.snapshot().updatedAt).toEqual(T1);
  });
});

describe('unpublish', () => {
  it('takes a published article offline: a draft with nothing live, still showing its last live revision', () => {
    const { article, live } = published();
    article.unpublish(T2);
    expect(article.status).toBe('draft');
    expect(article.liveRevisionId).toBeNull();
    expect(article.currentRevisionId).toBe(live.id);
    expect(article.snapshot()).toMatchObject({ publishedAt: T1, updatedAt: T2 });
  });

  it('refuses an article that is not published (a draft, an unpublished one, a trashed one) with InvalidStateError', () => {
    const draft = draftArticle();
    const unpublished = published().article;
    unpublished.unpublish(T2);
    const trashed = published().article;
    trashed.trash(T2);
    for (const article of [draft, unpublished, trashed]) {
      const before = article.snapshot();
      const error = refusal(InvalidStateError, () => article.unpublish(T3));
      expect({ code: error.code, message: error.message }).toEqual({ code: 'invalid_state', message: `Article ${article.id} is not published` });
      expect(article.snapshot()).toEqual(before);
    }
  });
});

describe('trash and restore', () => {
  it('trashes a draft and restores it to draft', () => {
    const { article, first } = withFirstRevision();
    article.trash(T1);
    expect(article.status).toBe('trashed');
    expect(article.statusBeforeTrash).toBe('draft');
    expect(article.snapshot().updatedAt).toEqual(T1);
    expect(article.restore(T2)).toBe('draft');
    expect(article.status).toBe('draft');
    expect(article.statusBeforeTrash).toBeNull();
    expect(article.currentRevisionId).toBe(first.id);
    expect(article.snapshot().updatedAt).toEqual(T2);
  });

  it('trashes a published article and restores it to published, live revision and publishedAt kept', () => {
    const { article, live } = published();
    article.trash(T2);
    expect(article.statusBeforeTrash).toBe('published');
    expect(article.liveRevisionId).toBe(live.id);
    expect(article.restore(T3)).toBe('published');
    expect(article.snapshot()).toMatchObject({ status: 'published', statusBeforeTrash: null, liveRevisionId: live.id, currentRevisionId: live.id, publishedAt: T1, updatedAt: T3 });
  });

  it('refuses to trash a trashed article, and to restore one that is not trashed (InvalidStateError)', () => {
    const { article } = published();
    const notTrashed = refusal(InvalidStateError, () => article.restore(T2));
    expect({ code: notTrashed.code, message: notTrashed.message }).toEqual({ code: 'invalid_state', message: `Article ${article.id} is not trashed` });
    article.trash(T2);
    const before = article.snapshot();
    const again = refusal(InvalidStateError, () => article.trash(T3));
    expect({ code: again.code, message: again.message }).toEqual({ code: 'invalid_state', message: `Article ${article.id} is already trashed` });
    expect(article.snapshot()).toEqual(before);
  });

  it('a trashed article cannot be edited, published or moved until restored (InvalidStateError naming the action)', () => {
    const { article, live } = published();
    article.trash(T2);
    const before = article.snapshot();
    const refused = [
      ['edit', () => article.addRevision('Edited', content('Edited'), KEY, T3)],
      ['publish', () => article.publish(live, T3)],
      ['move', () => article.moveTo(OTHER_SECTION, COLLECTION, T3)],
    ] as const;
    for (const [action, work] of refused) {
      const error = refusal(InvalidStateError, work);
      expect({ action, code: error.code, message: error.message }).toEqual({ action, code: 'invalid_state', message: `Article ${article.id} is trashed; restore it to ${action} it` });
    }
    // Nothing moved, not even the version counter.
    expect(article.snapshot()).toEqual(before);
    article.restore(T3);
    expect(article.addRevision('Edited', content('Edited'), KEY, T4).version).toBe(before.latestVersion + 1);
  });
});

describe('place, slug and SEO', () => {
  it('moves an article to another section and collection', () => {
    const article = draftArticle();
    article.moveTo(OTHER_SECTION, COLLECTION, T1);
    expect(article.snapshot()).toMatchObject({ sectionId: OTHER_SECTION, collectionId: COLLECTION, updatedAt: T1 });
    article.moveTo(SECTION, null, T2);
    expect(article.snapshot()).toMatchObject({ sectionId: SECTION, collectionId: null, updatedAt: T2 });
  });

  it('a given slug switches the article to custom slug mode for good; a generated one keeps the mode', () => {
    const article = draftArticle();
    article.setSlug('reset-password-2', false, T1);
    expect({ slug: article.slug, custom: article.customSlug }).toEqual({ slug: 'reset-password-2', custom: false });
    article.setSlug('my-slug', true, T2);
    expect({ slug: article.slug, custom: article.customSlug }).toEqual({ slug: 'my-slug', custom: true });
    article.setSlug('generated-again', false, T3);
    expect({ slug: article.slug, custom: article.customSlug }).toEqual({ slug: 'generated-again', custom: true });
    expect(article.snapshot().updatedAt).toEqual(T3);
  });

  it('updates only the SEO fields given (null clears one) and validates ogImage', () => {
    const article = draftArticle();
    article.updateSeo({ keywords: 'password, login', metaDescription: 'How to reset it' }, T1);
    article.updateSeo({ ogImage: 'https://cdn.example.com/og.png' }, T2);
    expect(article.snapshot()).toMatchObject({ keywords: 'password, login', metaDescription: 'How to reset it', ogImage: 'https://cdn.example.com/og.png', updatedAt: T2 });
    article.updateSeo({ keywords: null }, T3);
    expect(article.snapshot()).toMatchObject({ keywords: null, metaDescription: 'How to reset it', ogImage: 'https://cdn.example.com/og.png' });
    const before = article.snapshot();
    const error = refusal(ValidationError, () => article.updateSeo({ metaDescription: 'Changed', ogImage: 'javascript:alert(1)' }, T4));
    expect(error.details).toEqual([{ field: 'ogImage', message: 'ogImage must be an absolute http(s) URL' }]);
    expect(article.snapshot()).toEqual(before);
  });

  it('knows whether a slug or SEO change touches what readers of the live article see', () => {
    const article = draftArticle();
    article.updateSeo({ keywords: 'k', metaDescription: 'm', ogImage: 'https://cdn.example.com/og.png' }, T0);
    // Not live: nothing readers see can change.
    expect(article.changesLiveFields({ keywords: 'other' }, 'other-slug')).toBe(false);
    const live = article.addRevision('Title', content('Body'), KEY, T1);
    article.publish(live, T1);
    expect(article.changesLiveFields({}, undefined)).toBe(false);
    expect(article.changesLiveFields({ keywords: 'k', metaDescription: 'm', ogImage: 'https://cdn.example.com/og.png' }, 'reset-your-password')).toBe(false);
    expect(article.changesLiveFields({}, 'new-slug')).toBe(true);
    expect(article.changesLiveFields({ keywords: null }, undefined)).toBe(true);
    expect(article.changesLiveFields({ metaDescription: 'other' }, undefined)).toBe(true);
    expect(article.changesLiveFields({ ogImage: 'https://cdn.example.com/other.png' }, undefined)).toBe(true);
    article.unpublish(T2);
    expect(article.changesLiveFields({}, 'new-slug')).toBe(false);
  });
});

describe('snapshot', () => {
  it('is a copy: changing it does not change the article', () => {
    const article = draftArticle();
    const copy = article.snapshot() as { status: string };
    copy.status = 'published';
    expect(article.status).toBe('draft');
  });
});

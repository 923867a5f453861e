import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DomainError, Principal } from '#core';
import {
  type ArticlePage,
  type ArticlePageResult,
  ContentModule,
  CreateArticleUseCase,
  CreateCollectionUseCase,
  CreateSectionUseCase,
  GetHelpCenterArticleUseCase,
  GetHelpCenterCollectionUseCase,
  GetHelpCenterFeedUseCase,
  GetHelpCenterHomeUseCase,
  GetHelpCenterSectionUseCase,
  GetHelpCenterShellUseCase,
  GetHelpCenterSitemapUseCase,
  PublishArticleTranslationUseCase,
  PublishArticleUseCase,
  PutArticleTranslationUseCase,
  PutCollectionTranslationUseCase,
  PutSectionTranslationUseCase,
  SearchHelpCenterUseCase,
  TrashArticleUseCase,
  UnpublishArticleUseCase,
  UpdateArticleUseCase,
  UpdateHelpdeskUseCase,
} from '#content';
import { PNG } from '../support/image-server.js';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The public help center's use cases below HTTP, against a PostgreSQL database of this file's own: what the pages
// show is live content only (never a draft, an unpublished or a trashed article), in the asked language or the
// default one marked as a fallback; counts, trails, neighbours, search, sitemap and feeds follow; a changed slug
// answers with the current one, also while it is being changed.

jest.setTimeout(90_000);

const publisher = new Principal('key_publisher', ['content:write', 'content:publish']);

describe('help center use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;
  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);

  let billingId: string;
  let generalId: string;
  const ids: Record<string, string> = {};
  const slugs: Record<string, string> = {};

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  async function article(
    name: string,
    input: { title: string; markdown: string; sectionId?: string; collectionId?: string | null; publish?: boolean; metaDescription?: string; slug?: string },
  ): Promise<string> {
    const created = await use(CreateArticleUseCase).execute({ sectionId: billingId, publish: true, ...input }, publisher);
    ids[name] = created.record.props.id;
    slugs[name] = created.record.props.slug;
    return created.record.props.id;
  }

  async function page(slug: string, language?: string): Promise<ArticlePage> {
    const result = await use(GetHelpCenterArticleUseCase).execute(slug, language);
    if (result.kind !== 'page') throw new Error(`expected a page for ${slug}, got ${result.kind}`);
    return result.page;
  }

  beforeAll(async () => {
    t = await createUseCaseModule([ContentModule], { env: { HELPDESK_LANGUAGES: 'en,fr,de' } });
    [{ id: generalId }] = await t.rows<{ id: string }>('SELECT id FROM sections WHERE is_default');
    billingId = (await use(CreateSectionUseCase).execute({ name: 'Billing' })).id;
    await use(PutSectionTranslationUseCase).execute(billingId, 'fr', { name: 'Facturation', status: 'published' });
    const gettingStarted = await use(CreateCollectionUseCase).execute({ title: 'Getting started', subtitle: 'First steps', sectionId: billingId, shortId: 'getting-started' });
    await use(PutCollectionTranslationUseCase).execute(gettingStarted.id, 'fr', { title: 'Premiers pas', subtitle: 'Vos débuts', status: 'published' });
    await use(PutCollectionTranslationUseCase).execute(gettingStarted.id, 'de', { title: 'Erste Schritte (Entwurf)', status: 'draft' });
    const invoices = await use(CreateCollectionUseCase).execute({ title: 'Invoices', parentCollectionId: gettingStarted.id, shortId: 'invoices' });
    await use(CreateCollectionUseCase).execute({ title: 'Empty', sectionId: billingId, shortId: 'empty' });
    const drafts = await use(CreateCollectionUseCase).execute({ title: 'Only drafts', sectionId: generalId, shortId: 'only-drafts' });
    ids['gettingStarted'] = gettingStarted.id;
    ids['invoices'] = invoices.id;

    await article('install', {
      title: 'Install the app',
      collectionId: gettingStarted.id,
      metaDescription: 'How to install the app.',
      markdown: `## Install\n\nDownload it.\n\n### Step one\n\nRun it.\n\n## Install\n\nAgain.\n\n## Feedback\n\nTell us.\n\n![Screen](data:image/png;base64,${PNG.toString('base64')})`,
    });
    await article('pay', { title: 'Pay an invoice', collectionId: invoices.id, markdown: 'Pay your **invoice** from the billing page before the due date.' });
    await article('draft', { title: 'Secret draft', collectionId: gettingStarted.id, markdown: 'Not live yet.', publish: false });
    await article('trashed', { title: 'Trashed one', collectionId: gettingStarted.id, markdown: 'Gone.' });
    await use(TrashArticleUseCase).execute(ids['trashed']!);
    await article('unpublished', { title: 'Unpublished one', collectionId: gettingStarted.id, markdown: 'Offline.' });
    await use(UnpublishArticleUseCase).execute(ids['unpublished']!);
    await article('configure', { title: 'Configure the app', collectionId: gettingStarted.id, markdown: 'Open the settings.' });
    await article('refunds', { title: 'Refunds', markdown: 'Ask for a refund within 30 days.' });
    await article('generalDraft', { title: 'General draft', sectionId: generalId, collectionId: drafts.id, markdown: 'Draft.', publish: false });

    await use(PutArticleTranslationUseCase).execute(ids['install']!, 'fr', { title: "Installer l'application", markdown: '## Installer\n\nTéléchargez-la.' });
    await use(PublishArticleTranslationUseCase).execute(ids['install']!, 'fr');
    await use(PutArticleTranslationUseCase).execute(ids['pay']!, 'fr', { title: 'Payer une facture (brouillon)', markdown: 'Brouillon.' });
  });
  afterAll(() => t?.close());

  describe('home', () => {
    it('shows sections in order with their collections nested, counting live articles only (descendants included), empty ones left out', async () => {
      const home = await use(GetHelpCenterHomeUseCase).execute();
      expect(home.locale).toEqual({ requested: 'en', defaultLanguage: 'en', languages: ['en', 'fr', 'de'] });
      expect(home.branding).toEqual({ name: 'Help Center', logoUrl: null, accentColor: null, footerLinks: [] });
      expect(home.sections.map((s) => s.section.name)).toEqual(['Billing']);
      const [billing] = home.sections;
      expect(billing!.section).toEqual({ id: billingId, name: 'Billing', language: 'en', fallback: false });
      expect(billing!.collections).toEqual([
        expect.objectContaining({
          shortId: 'getting-started',
          title: 'Getting started',
          description: 'First steps',
          articleCount: 3,
          fallback: false,
          children: [expect.objectContaining({ shortId: 'invoices', articleCount: 1, children: [] })],
        }),
      ]);
      const recent = home.recentArticles.map((a) => a.slug);
      expect(recent.sort()).toEqual([slugs['install'], slugs['pay'], slugs['configure'], slugs['refunds']].sort());
      const install = home.recentArticles.find((a) => a.id === ids['install'])!;
      expect(install).toMatchObject({ title: 'Install the app', summary: 'How to install the app.', language: 'en', fallback: false });
      expect(home.recentArticles.find((a) => a.id === ids['pay'])!.summary).toBe('Pay your invoice from the billing page before the due date.');
      expect(home.lastModified).toBeInstanceOf(Date);
    });

    it('in another language: published translations where there are, the default language marked as a fallback elsewhere', async () => {
      const home = await use(GetHelpCenterHomeUseCase).execute('fr');
      expect(home.locale.requested).toBe('fr');
      const [billing] = home.sections;
      expect(billing!.section).toMatchObject({ name: 'Facturation', language: 'fr', fallback: false });
      expect(billing!.collections[0]).toMatchObject({ title: 'Premiers pas', description: 'Vos débuts', language: 'fr', fallback: false });
      expect(billing!.collections[0]!.children[0]).toMatchObject({ title: 'Invoices', language: 'en', fallback: true });
      expect(home.recentArticles.find((a) => a.id === ids['install'])).toMatchObject({ title: "Installer l'application", language: 'fr', fallback: false });
      // A translation that is only a draft is not shown.
      expect(home.recentArticles.find((a) => a.id === ids['pay'])).toMatchObject({ title: 'Pay an invoice', language: 'en', fallback: true });

      const de = await use(GetHelpCenterHomeUseCase).execute('de');
      expect(de.sections[0]!.collections[0]).toMatchObject({ title: 'Getting started', language: 'en', fallback: true });
      expect(de.recentArticles.every((a) => a.fallback && a.language === 'en')).toBe(true);
    });

    it('a language that is not enabled is not found', async () => {
      for (const work of [
        () => use(GetHelpCenterHomeUseCase).execute('es'),
        () => use(GetHelpCenterArticleUseCase).execute(slugs['install']!, 'es'),
        () => use(GetHelpCenterShellUseCase).execute('xx'),
        () => use(SearchHelpCenterUseCase).execute({ query: 'install', language: 'es' }),
        () => use(GetHelpCenterFeedUseCase).execute('es'),
        () => use(GetHelpCenterCollectionUseCase).execute('getting-started', 'es'),
        () => use(GetHelpCenterSectionUseCase).execute(billingId, 'es'),
      ]) {
        const error = await failure(work());
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ code: 'not_found' });
      }
    });
  });

  describe('sections and collections', () => {
    it('a collection page: breadcrumbs, live subcollections, its live articles in order', async () => {
      const collection = await use(GetHelpCenterCollectionUseCase).execute('getting-started');
      expect(collection.collection).toMatchObject({ id: ids['gettingStarted'], title: 'Getting started', articleCount: 3 });
      expect(collection.breadcrumbs).toEqual([{ kind: 'section', section: { id: billingId, name: 'Billing', language: 'en', fallback: false } }]);
      expect(collection.subcollections).toEqual([expect.objectContaining({ shortId: 'invoices', articleCount: 1 })]);
      expect(collection.articles.map((a) => a.id)).toEqual([ids['install'], ids['configure']]);

      const nested = await use(GetHelpCenterCollectionUseCase).execute('invoices', 'fr');
      expect(nested.breadcrumbs).toEqual([
        { kind: 'section', section: expect.objectContaining({ name: 'Facturation' }) },
        { kind: 'collection', collection: expect.objectContaining({ shortId: 'getting-started', title: 'Premiers pas', articleCount: 3 }) },
      ]);
      expect(nested.articles).toEqual([expect.objectContaining({ id: ids['pay'], fallback: true })]);
    });

    it('an unknown collection, or one without live articles, is not found', async () => {
      for (const shortId of ['empty', 'only-drafts', 'no-such-collection']) {
        expect(await failure(use(GetHelpCenterCollectionUseCase).execute(shortId))).toMatchObject({ code: 'not_found' });
      }
    });

    it('a section page: its live collections and its live articles outside collections; a section without live articles is not found', async () => {
      const section = await use(GetHelpCenterSectionUseCase).execute(billingId);
      expect(section.section.name).toBe('Billing');
      expect(section.collections.map((c) => c.shortId)).toEqual(['getting-started']);
      expect(section.articles.map((a) => a.id)).toEqual([ids['refunds']]);
      expect(await failure(use(GetHelpCenterSectionUseCase).execute(generalId))).toMatchObject({ code: 'not_found' });
      expect(await failure(use(GetHelpCenterSectionUseCase).execute('sect_nope'))).toMatchObject({ code: 'not_found' });
    });
  });

  describe('article', () => {
    it('renders the live revision with heading anchors and a table of contents, with breadcrumbs, related articles and neighbours', async () => {
      const install = await page(slugs['install']!);
      expect(install.article).toMatchObject({ id: ids['install'], title: 'Install the app', language: 'en', fallback: false, metaDescription: 'How to install the app.' });
      expect(install.toc).toEqual([
        { id: 'install', text: 'Install', level: 2 },
        { id: 'step-one', text: 'Step one', level: 3 },
        { id: 'install-2', text: 'Install', level: 2 },
        // The page's own #feedback stays the feedback form's.
        { id: 'feedback-2', text: 'Feedback', level: 2 },
      ]);
      expect(install.article.html).toContain('<h2 id="install">Install</h2>');
      expect(install.article.html).toContain('<h3 id="step-one">Step one</h3>');
      // Images at the asset store's public URL, as the API's HTML has them.
      expect(install.article.html).toMatch(/<img src="http:\/\/help\.test\/static\/user-images\/[0-9a-f]{64}\.png" alt="Screen">/);
      expect(install.breadcrumbs).toEqual([
        { kind: 'section', section: expect.objectContaining({ id: billingId }) },
        { kind: 'collection', collection: expect.objectContaining({ shortId: 'getting-started', articleCount: 3 }) },
      ]);
      expect(install.previous).toBeNull();
      expect(install.next).toMatchObject({ id: ids['configure'] });
      // The collection's other live article first, then the section's.
      expect(install.related.map((a) => a.id)).toEqual([ids['configure'], ids['refunds'], ids['pay']]);
      expect(install.availableLanguages).toEqual(['en', 'fr']);
      const configure = await page(slugs['configure']!);
      expect(configure.previous).toMatchObject({ id: ids['install'] });
      expect(configure.next).toBeNull();
      expect(configure.related.map((a) => a.id)).not.toContain(ids['configure']);
    });

    it('in another language: the published translation, else the default language marked as a fallback', async () => {
      const fr = await page(slugs['install']!, 'fr');
      expect(fr.article).toMatchObject({ title: "Installer l'application", language: 'fr', fallback: false, metaDescription: null });
      expect(fr.article.html).toBe('<h2 id="installer">Installer</h2><p>Téléchargez-la.</p>');
      expect(fr.toc).toEqual([{ id: 'installer', text: 'Installer', level: 2 }]);
      expect(fr.breadcrumbs[1]).toMatchObject({ collection: { title: 'Premiers pas', fallback: false } });

      const pay = await page(slugs['pay']!, 'fr');
      expect(pay.article).toMatchObject({ title: 'Pay an invoice', language: 'en', fallback: true });
      expect(pay.availableLanguages).toEqual(['en']);
    });

    it('shows what is live now: a saved draft changes nothing until it is published; a translation published again shows its new text', async () => {
      const id = await article('republished', { title: 'Republished', markdown: '## First\n\nVersion one.' });
      expect((await page(slugs['republished']!)).article.html).toContain('Version one.');
      await use(UpdateArticleUseCase).execute(id, { title: 'Republished (draft)', markdown: '## Second\n\nVersion two.' }, publisher);
      const unchanged = await page(slugs['republished']!);
      expect(unchanged.article).toMatchObject({ title: 'Republished' });
      expect(unchanged.toc).toEqual([{ id: 'first', text: 'First', level: 2 }]);
      await use(PublishArticleUseCase).execute(id, publisher.keyId);
      const republished = await page(slugs['republished']!);
      expect(republished.article.title).toBe('Republished (draft)');
      expect(republished.article.html).toBe('<h2 id="second">Second</h2><p>Version two.</p>');

      await use(PutArticleTranslationUseCase).execute(id, 'fr', { title: 'Republié', markdown: 'Un.' });
      await use(PublishArticleTranslationUseCase).execute(id, 'fr');
      expect((await page(slugs['republished']!, 'fr')).article.html).toBe('<p>Un.</p>');
      await use(PutArticleTranslationUseCase).execute(id, 'fr', { title: 'Republié', markdown: 'Deux.' });
      expect((await page(slugs['republished']!, 'fr')).article.html).toBe('<p>Un.</p>');
      await use(PublishArticleTranslationUseCase).execute(id, 'fr');
      expect((await page(slugs['republished']!, 'fr')).article.html).toBe('<p>Deux.</p>');
    });

    it('drafts, unpublished and trashed articles and unknown slugs are not found', async () => {
      for (const slug of [slugs['draft']!, slugs['unpublished']!, slugs['trashed']!, slugs['generalDraft']!, 'no-such-article']) {
        const result = await use(GetHelpCenterArticleUseCase).execute(slug);
        expect(result).toMatchObject({ kind: 'not_found', branding: { name: 'Help Center' }, locale: { requested: 'en' } });
      }
    });

    it('a changed slug answers moved to the current one (every earlier slug), until another article takes it', async () => {
      const id = await article('moving', { title: 'Moving article', markdown: 'I move.' });
      const first = slugs['moving']!;
      await use(UpdateArticleUseCase).execute(id, { slug: 'moved-once' }, publisher);
      await use(UpdateArticleUseCase).execute(id, { slug: 'moved-twice' }, publisher);
      expect(await use(GetHelpCenterArticleUseCase).execute(first)).toEqual({ kind: 'moved', slug: 'moved-twice' });
      expect(await use(GetHelpCenterArticleUseCase).execute('moved-once', 'fr')).toEqual({ kind: 'moved', slug: 'moved-twice' });
      expect((await page('moved-twice')).article.id).toBe(id);

      // Another article taking an old slug: that slug is its own now (a draft: not found, no redirect either).
      await article('squatter', { title: 'Squatter', markdown: 'Mine now.', slug: 'moved-once', publish: false });
      expect(await t.rows('SELECT slug FROM article_slug_history WHERE article_id = $1 ORDER BY slug', [id])).toEqual([{ slug: first }]);
      expect(await use(GetHelpCenterArticleUseCase).execute('moved-once')).toMatchObject({ kind: 'not_found' });
      // Taking its own old slug back ends that redirect.
      await use(UpdateArticleUseCase).execute(id, { slug: first }, publisher);
      expect((await page(first)).article.id).toBe(id);
      expect(await use(GetHelpCenterArticleUseCase).execute('moved-twice')).toEqual({ kind: 'moved', slug: first });
      // An old slug of an article that is no longer live does not redirect.
      await use(UnpublishArticleUseCase).execute(id);
      expect(await use(GetHelpCenterArticleUseCase).execute('moved-twice')).toMatchObject({ kind: 'not_found' });
    });

    it('a slug changing while it is read: every read sees the page or the move, never nothing', async () => {
      const id = await article('racing', { title: 'Racing article', markdown: 'Fast.' });
      let current = slugs['racing']!;
      const seen: ArticlePageResult['kind'][] = [];
      let done = false;
      const readers = Array.from({ length: 3 }, async () => {
        while (!done) {
          const slug = current;
          const result = await use(GetHelpCenterArticleUseCase).execute(slug);
          seen.push(result.kind);
          if (result.kind === 'moved') expect(result.slug).toMatch(/^racing-/);
          if (result.kind === 'page') expect(result.page.article.id).toBe(id);
        }
      });
      for (let i = 1; i <= 15; i++) {
        await use(UpdateArticleUseCase).execute(id, { slug: `racing-${i}` }, publisher);
        current = `racing-${i}`;
      }
      done = true;
      await Promise.all(readers);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((kind) => kind === 'not_found')).toEqual([]);
    });
  });

  describe('search', () => {
    it('finds live articles with escaped, highlighted snippets, 10 a page', async () => {
      for (let i = 1; i <= 12; i++) await article(`zebra${i}`, { title: `Zebra crossing ${i}`, markdown: `The zebra of Tom & Jerry's ${i} < ${i + 1} crosses.` });
      await article('zebraDraft', { title: 'Zebra draft', markdown: 'zebra draft', publish: false });
      const first = await use(SearchHelpCenterUseCase).execute({ query: 'zebra', page: 1 });
      expect(first.results).toHaveLength(10);
      expect(first).toMatchObject({ query: 'zebra', page: 1, hasNextPage: true });
      const second = await use(SearchHelpCenterUseCase).execute({ query: 'zebra', page: 2 });
      expect(second.results).toHaveLength(2);
      expect(second.hasNextPage).toBe(false);
      const found = [...first.results, ...second.results];
      expect(new Set(found.map((r) => r.id)).size).toBe(12);
      expect(found.map((r) => r.id)).not.toContain(ids['zebraDraft']);
      expect(found[0]!.snippet).toContain('<mark>');
      expect(found.map((r) => r.snippet)).toContain('<mark>zebra</mark> of Tom &amp; Jerry&#39;s 3 &lt; 4 crosses.');
      expect(found[0]).toMatchObject({ language: 'en', fallback: false });
    });

    it('an empty query finds nothing without an error; pages past the end are empty', async () => {
      expect(await use(SearchHelpCenterUseCase).execute({ query: '   ', page: 1 })).toMatchObject({ query: '', results: [], hasNextPage: false });
      expect((await use(SearchHelpCenterUseCase).execute({ query: 'zebra', page: 50 })).results).toEqual([]);
    });

    it('searches the published translations of another language', async () => {
      const fr = await use(SearchHelpCenterUseCase).execute({ query: 'téléchargez', language: 'fr', page: 1 });
      expect(fr.results.map((r) => r.id)).toEqual([ids['install']]);
      expect(fr.results[0]).toMatchObject({ title: "Installer l'application", language: 'fr', fallback: false });
      expect((await use(SearchHelpCenterUseCase).execute({ query: 'brouillon', language: 'fr', page: 1 })).results).toEqual([]);
    });
  });

  describe('sitemap and feeds', () => {
    it('the sitemap lists every live article with its languages, and the collections holding live articles', async () => {
      const sitemap = await use(GetHelpCenterSitemapUseCase).execute();
      const bySlug = new Map(sitemap.articles.map((entry) => [entry.slug, entry]));
      expect(bySlug.get(slugs['install']!)).toMatchObject({ languages: ['en', 'fr'] });
      expect(bySlug.get(slugs['install']!)!.lastModified).toBeInstanceOf(Date);
      expect(bySlug.get(slugs['pay']!)).toMatchObject({ languages: ['en'] });
      for (const hidden of ['draft', 'unpublished', 'trashed', 'generalDraft']) expect(bySlug.has(slugs[hidden]!)).toBe(false);
      expect(sitemap.collections.map((c) => c.shortId).sort()).toEqual(['getting-started', 'invoices']);
    });

    it('a feed lists the newest publications of its language only', async () => {
      const en = await use(GetHelpCenterFeedUseCase).execute();
      expect(en.articles.length).toBeLessThanOrEqual(20);
      const times = en.articles.map((a) => a.publishedAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(en.articles.map((a) => a.id)).not.toContain(ids['draft']);
      const fr = await use(GetHelpCenterFeedUseCase).execute('fr');
      expect(fr.articles.map((a) => a.id)).toEqual([ids['republished'], ids['install']]);
      expect(fr.articles[0]).toMatchObject({ language: 'fr', fallback: false });
      expect((await use(GetHelpCenterFeedUseCase).execute('de')).articles).toEqual([]);
    });
  });

  describe('branding and changes', () => {
    it('pages show the branding; lastModified moves forward with any change, an unpublish included', async () => {
      const before = await use(GetHelpCenterHomeUseCase).execute();
      await use(UpdateHelpdeskUseCase).execute({ name: 'Acme Help', accentColor: '#0B5FFF', footerLinks: [{ label: 'Status', url: 'https://status.example.com' }] });
      const shell = await use(GetHelpCenterShellUseCase).execute('fr');
      expect(shell.branding).toEqual({ name: 'Acme Help', logoUrl: null, accentColor: '#0b5fff', footerLinks: [{ label: 'Status', url: 'https://status.example.com' }] });
      expect(shell.locale.requested).toBe('fr');
      const branded = await use(GetHelpCenterHomeUseCase).execute();
      expect(branded.lastModified.getTime()).toBeGreaterThan(before.lastModified.getTime());
      await new Promise((resolve) => setTimeout(resolve, 5));
      await use(UnpublishArticleUseCase).execute(ids['refunds']!);
      const after = await use(GetHelpCenterHomeUseCase).execute();
      expect(after.lastModified.getTime()).toBeGreaterThan(branded.lastModified.getTime());
      expect(after.recentArticles.map((a) => a.id)).not.toContain(ids['refunds']);
      expect(await use(GetHelpCenterArticleUseCase).execute(slugs['refunds']!)).toMatchObject({ kind: 'not_found' });
    });
  });
});

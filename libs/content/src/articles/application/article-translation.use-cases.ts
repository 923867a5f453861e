import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, type CursorPage, type CursorRequest, InvalidStateError, newId, NotFoundError, Paginator, type Principal, UnitOfWork, ValidationError } from '#core';
import { CurrentHelpdesk } from '../../helpdesk/application/current-helpdesk.js';
import { ContentEvents } from '../../shared/application/content-events.js';
import type { ArticleTranslation } from '../domain/article-translation.js';
import { seesUnpublished } from './article-access.js';
import { ArticleBodies, type BodyInput } from './article-bodies.js';
import { ArticleTranslationRepository, type SearchHit } from './article-translation.repository.js';
import { ArticleRepository } from './article.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

export interface PutArticleTranslationCommand extends BodyInput {
  readonly title: string;
}

/** Writes the draft of an article's translation into an enabled language other than the default one. */
@Injectable()
export class PutArticleTranslationUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly locked: GetLockedArticle,
    private readonly bodies: ArticleBodies,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(articleId: string, locale: string, command: PutArticleTranslationCommand): Promise<{ translation: ArticleTranslation; created: boolean }> {
    (await this.helpdesk.get()).assertTranslationLanguage(locale);
    // 404 and 409 before the body's images are fetched and stored; checked again under the lock below.
    await this.unitOfWork.run(() => this.translatable(articleId));
    const content = (await this.bodies.fromInput(command)) ?? this.bodies.empty();
    return this.unitOfWork.run(async () => {
      await this.translatable(articleId);
      const { created } = await this.translations.putDraft({ id: newId('artr'), articleId, locale, title: command.title, content, at: this.clock.now() });
      await this.events.article('article.updated', articleId);
      return { translation: (await this.translations.find(articleId, locale))!, created };
    });
  }

  /** The article, locked, if it may be translated: 404 when unknown, 409 when trashed. */
  private async translatable(articleId: string): Promise<void> {
    const article = await this.locked.get(articleId);
    if (article.status === 'trashed') throw new InvalidStateError(`Article ${articleId} is trashed; restore it to translate it`);
  }
}

/** Makes a translation's draft live (and searchable in its language). */
@Injectable()
export class PublishArticleTranslationUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly locked: GetLockedArticle,
    private readonly events: ContentEvents,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(articleId: string, locale: string): Promise<ArticleTranslation> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(articleId);
      if (article.status === 'trashed') throw new InvalidStateError(`Article ${articleId} is trashed; restore it first`);
      if (!(await this.translations.find(articleId, locale))) throw new NotFoundError(`Translation ${locale} of article`, articleId);
      await this.translations.publish(articleId, locale, this.clock.now());
      await this.events.article('article.updated', articleId);
      return (await this.translations.find(articleId, locale))!;
    });
  }
}

/** An article's translations (keys without content:write only see those of published articles). */
@Injectable()
export class ListArticleTranslationsUseCase {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly translations: ArticleTranslationRepository,
  ) {}

  async execute(articleId: string, principal: Principal): Promise<ArticleTranslation[]> {
    const article = await this.articles.findById(articleId);
    if (!article || (article.status !== 'published' && !seesUnpublished(principal))) throw new NotFoundError('Article', articleId);
    const all = await this.translations.list(articleId);
    return seesUnpublished(principal) ? all : all.filter((t) => t.published !== null);
  }
}

/** One translation as a reader gets it: the published copy, or for writers the draft when none is published. */
@Injectable()
export class GetArticleTranslationUseCase {
  constructor(private readonly translations: ArticleTranslationRepository) {}

  async execute(articleId: string, locale: string, principal: Principal): Promise<{ title: string; content: ArticleTranslation['content']; translation: ArticleTranslation }> {
    const translation = await this.translations.find(articleId, locale);
    if (translation?.published) return { ...translation.published, translation };
    if (translation && seesUnpublished(principal)) return { title: translation.title, content: translation.content, translation };
    throw new NotFoundError(`Translation ${locale} of article`, articleId);
  }
}

/** For each locale, the published articles with no translation in it (default: every enabled language but the default). */
@Injectable()
export class MissingTranslationsUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly helpdesk: CurrentHelpdesk,
  ) {}

  async execute(locales: readonly string[] | undefined): Promise<Record<string, string[]>> {
    const helpdesk = await this.helpdesk.get();
    const wanted = locales ?? helpdesk.languages.filter((l) => l !== helpdesk.defaultLanguage);
    for (const locale of wanted) helpdesk.assertTranslationLanguage(locale);
    return this.translations.missing([...new Set(wanted)]);
  }
}

export interface SearchRequest extends CursorRequest {
  readonly query: string;
  readonly locale?: string;
}

export interface SearchResult extends Omit<SearchHit, 'snippet'> {
  /** HTML: the text escaped, matched terms in <mark>. */
  readonly snippet: string;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Full-text search over published articles (or a locale's published translations) with PostgreSQL's
 * websearch syntax, ranked, with a highlighted snippet. Cursors belong to one query: another query's cursor is
 * invalid_cursor.
 */
@Injectable()
export class SearchArticlesUseCase {
  constructor(
    private readonly translations: ArticleTranslationRepository,
    private readonly helpdesk: CurrentHelpdesk,
    private readonly paginator: Paginator,
  ) {}

  async execute(request: SearchRequest): Promise<CursorPage<SearchResult>> {
    const query = request.query.trim();
    if (query.length === 0 || query.length > 500) throw ValidationError.field('query', 'query must be 1 to 500 characters');
    const helpdesk = await this.helpdesk.get();
    const locale = request.locale && request.locale !== helpdesk.defaultLanguage ? request.locale : null;
    if (locale !== null) helpdesk.assertTranslationLanguage(locale);
    const list = `search:${createHash('sha256').update(`${locale ?? ''}\n${query}`).digest('base64url').slice(0, 16)}`;
    const page = this.paginator.query(list, request, 'rank_desc');
    const slice = await this.translations.search({ query, locale, language: locale ?? helpdesk.defaultLanguage }, page);
    return this.paginator.page(list, page, slice, (hit) => ({ value: hit.rank, id: hit.articleId }), (hit) => ({
      ...hit,
      snippet: escapeHtml(hit.snippet).replaceAll('\u0001', '<mark>').replaceAll('\u0002', '</mark>'),
    }));
  }
}

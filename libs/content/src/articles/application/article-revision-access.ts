import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import type { ArticleRevision } from '../domain/article.js';
import { seesUnpublished } from './article-access.js';
import { ArticleReadRepository } from './article-read.repository.js';
import { ArticleRepository } from './article.repository.js';

/** Versions are stored as PostgreSQL integers. */
const MAX_VERSION = 2_147_483_647;

/** Which of an article's revisions a caller may read, for the revision history use cases. */
@Injectable()
export class ArticleRevisionAccess {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly views: ArticleReadRepository,
  ) {}

  /**
   * Whether the caller sees only revisions that were live. Keys without content:write or content:publish see
   * published articles only, and of their history only what readers could see at some time: never the versions
   * written before the first publication, nor drafts saved between publications. 404 for an article they may not see.
   */
  async liveOnly(articleId: string, principal: Principal): Promise<boolean> {
    const article = await this.articles.findById(articleId);
    if (!article) throw new NotFoundError('Article', articleId);
    if (seesUnpublished(principal)) return false;
    if (article.status !== 'published' || !article.liveRevisionId) throw new NotFoundError('Article', articleId);
    return true;
  }

  /** The revision `ref` names (a version number or a revision ID); 404 when there is none the caller may see. */
  async revision(articleId: string, ref: string, liveOnly: boolean): Promise<ArticleRevision> {
    const isVersion = /^\d+$/.test(ref);
    // A larger number names no revision, and querying it would fail in the database (a 500 instead of a 404).
    if (isVersion && Number(ref) > MAX_VERSION) throw new NotFoundError('Revision', ref);
    const revision = await this.views.findRevision(articleId, isVersion ? { version: Number(ref) } : { id: ref });
    if (!revision || (liveOnly && revision.wentLiveAt === null)) throw new NotFoundError('Revision', ref);
    return revision;
  }
}

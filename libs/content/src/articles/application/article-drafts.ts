import { Injectable } from '@nestjs/common';
import { newId } from '#core';
import type { Article, ArticleContent, ArticleRevision } from '../domain/article.js';
import { ArticleRepository } from './article.repository.js';

/** Writes new versions into an article's open draft, opening one from the live revision when none is open. */
@Injectable()
export class ArticleDrafts {
  constructor(private readonly articles: ArticleRepository) {}

  /** The revision the draft holds now (the live one for a fresh draft). */
  async currentRevision(article: Article): Promise<ArticleRevision> {
    const draft = await this.articles.findDraft(article.id);
    const revisionId = draft?.revisionId ?? article.liveRevisionId ?? article.currentRevisionId;
    return (await this.articles.findRevision(article.id, revisionId!))!;
  }

  /** Records a new revision and points the (possibly new) open draft at it. */
  async write(article: Article, title: string, content: ArticleContent, keyId: string, at: Date): Promise<void> {
    // Without a live revision (unpublished, its draft discarded) the article shows its last live one: a new
    // draft starts from that, so that discarding it goes back there instead of answering "never published".
    // Read before addRevision, which moves the shown revision of an unpublished article.
    const base = article.liveRevisionId ?? article.currentRevisionId;
    const revision = article.addRevision(title, content, keyId, at);
    await this.articles.insertRevision(revision);
    const existing = await this.articles.findDraft(article.id);
    const draft = existing
      ? { ...existing, revisionId: revision.id, updatedAt: at }
      : { id: newId('drf'), articleId: article.id, revisionId: revision.id, baseRevisionId: base, createdAt: at, updatedAt: at };
    await this.articles.saveDraft(draft);
  }
}

import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '#core';
import { ArticlePublication } from './article-publication.js';
import { ArticleReadRepository, type ArticleRecord } from './article-read.repository.js';
import { GetLockedArticle } from './get-locked-article.js';

/**
 * Makes the open draft live: a new revision (the next version) with the draft's content, the draft closed.
 * Publishing with nothing new is a no-op. Returns the article after the change (HTML).
 */
@Injectable()
export class PublishArticleUseCase {
  constructor(
    private readonly locked: GetLockedArticle,
    private readonly publication: ArticlePublication,
    private readonly views: ArticleReadRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  execute(id: string, keyId: string): Promise<ArticleRecord> {
    return this.unitOfWork.run(async () => {
      const article = await this.locked.get(id);
      await this.publication.publish(article, keyId);
      return (await this.views.findRecord(id, 'html'))!;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import { ArticleReadRepository, type ContentFormat, type DraftView } from './article-read.repository.js';

/** The article's open draft (404 when it has none). */
@Injectable()
export class GetArticleDraftUseCase {
  constructor(private readonly views: ArticleReadRepository) {}

  async execute(id: string, format: ContentFormat): Promise<DraftView> {
    const draft = await this.views.findDraft(id, format);
    if (!draft) throw new NotFoundError('Open draft of article', id);
    return draft;
  }
}

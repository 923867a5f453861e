import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import { type ArticleRecord, ArticleReadRepository, type ContentFormat } from './article-read.repository.js';

/** Whether a key may see unpublished articles: content:write or content:publish (CONTRACT §3). */
export function seesUnpublished(principal: Principal): boolean {
  return principal.has('content:write') || principal.has('content:publish');
}

/** Reads one article as the caller may see it: others than writers and publishers see published ones only. */
@Injectable()
export class ArticleAccess {
  constructor(private readonly views: ArticleReadRepository) {}

  async record(id: string, format: ContentFormat, principal: Principal): Promise<ArticleRecord> {
    const record = await this.views.findRecord(id, format);
    if (!record || (record.props.status !== 'published' && !seesUnpublished(principal))) throw new NotFoundError('Article', id);
    return record;
  }
}

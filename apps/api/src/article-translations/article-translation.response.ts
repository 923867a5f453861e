import { ApiProperty } from '@nestjs/swagger';
import type { ArticleTranslation, SearchResult } from '#content';
import { CursorPageOf } from '../common/page.response.js';

export class ArticleTranslationResponse {
  @ApiProperty({ example: 'artr_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty()
  articleId: string;

  @ApiProperty({ example: 'fr' })
  locale: string;

  @ApiProperty({ description: 'Title of the draft' })
  title: string;

  @ApiProperty({ enum: ['draft', 'published'], description: 'published once its draft has been published at least once' })
  status: 'draft' | 'published';

  @ApiProperty({ description: 'The draft has changes that are not live yet' })
  hasUnpublishedChanges: boolean;

  @ApiProperty({ description: 'The source article was published after this translation was last written' })
  outdated: boolean;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  publishedAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  static from(t: ArticleTranslation): ArticleTranslationResponse {
    return {
      id: t.id,
      articleId: t.articleId,
      locale: t.locale,
      title: t.title,
      status: t.published ? 'published' : 'draft',
      hasUnpublishedChanges: !t.publishedAt || t.updatedAt.getTime() > t.publishedAt.getTime(),
      outdated: t.outdated,
      publishedAt: t.publishedAt?.toISOString() ?? null,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    };
  }
}

export class ArticleTranslationList extends CursorPageOf(ArticleTranslationResponse, 'ArticleTranslationList') {}

export class MissingTranslationsResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { fr: ['art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E'] },
    description: 'For each requested locale, the IDs of published articles with no translation row in it',
  })
  missing: Record<string, string[]>;
}

export class SearchResultResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'Locale of the matched content' })
  locale: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({
    description:
      'HTML: up to two passages of 8 to 30 words of the body as plain text (Markdown syntax removed; link labels, image alt text and step and card titles kept; one line, single spaces, punctuation kept) joined by " … ", escaped, with the matched terms in <mark>',
  })
  snippet: string;

  @ApiProperty({ description: 'Relevance (higher first)' })
  rank: number;

  @ApiProperty()
  sectionId: string;

  @ApiProperty({ type: String, nullable: true })
  collectionId: string | null;

  @ApiProperty({ format: 'date-time' })
  publishedAt: string;

  static from(hit: SearchResult, publicUrl: string): SearchResultResponse {
    return {
      id: hit.articleId,
      title: hit.title,
      locale: hit.locale,
      url: `${publicUrl}/articles/${hit.slug}`,
      snippet: hit.snippet,
      rank: hit.rank,
      sectionId: hit.sectionId,
      collectionId: hit.collectionId,
      publishedAt: hit.publishedAt.toISOString(),
    };
  }
}

export class SearchPage extends CursorPageOf(SearchResultResponse, 'SearchPage') {}

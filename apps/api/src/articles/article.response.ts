import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { ARTICLE_STATUSES, type ArticleRecord, type ArticleRevision, articleView, type ContentFormat, contentField, type DraftView, renderingOf, type RevisionDiff } from '#content';
import { CursorPageOf } from '../common/page.response.js';

export class ArticleResponse {
  @ApiProperty({ example: 'art_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ example: 'Reset your password' })
  title: string;

  @ApiProperty({ type: String, nullable: true, example: 'reset-your-password' })
  slug: string | null;

  @ApiPropertyOptional({ description: 'With format=html (default); safe HTML rendered at write time' })
  contentHtml?: string;

  @ApiPropertyOptional({ description: 'With format=markdown; custom nodes as ::: directives' })
  contentMarkdown?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true, description: 'With format=json: the stored ProseMirror document, lossless' })
  contentJson?: Record<string, unknown> | null;

  @ApiProperty({ type: String, nullable: true, format: 'uri', description: '{PUBLIC_URL}/articles/{slug}; null until first published' })
  url: string | null;

  @ApiProperty({ type: String, nullable: true })
  sectionId: string | null;

  @ApiProperty({ type: String, nullable: true })
  collectionId: string | null;

  @ApiProperty({ enum: ARTICLE_STATUSES, nullable: true })
  status: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When it was last published' })
  publishedAt: string | null;

  @ApiProperty({ type: String, nullable: true })
  keywords: string | null;

  @ApiProperty({ type: String, nullable: true })
  metaDescription: string | null;

  @ApiProperty({ type: String, nullable: true })
  ogImage: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiPropertyOptional({ description: 'With ?locale=: the language of title and content' })
  locale?: string;

  /** The article as the API shows it; a translation (record.locale) says its language. */
  static from(record: ArticleRecord, format: ContentFormat, publicUrl: string): ArticleResponse {
    const view = articleView(record, format, publicUrl);
    return record.locale === undefined ? view : { ...view, locale: record.locale };
  }
}

export class ArticleWithDraftResponse extends ArticleResponse {
  @ApiProperty({ type: String, nullable: true, example: 'drf_01JD3Q7W6S1X0Y2Z3A4B5C6D7E', description: 'The open draft, or null (published at once)' })
  draft_id: string | null;
}

export class ArticlePage extends CursorPageOf(ArticleResponse, 'ArticlePage') {}

export class ArticleOffsetPage {
  @ApiProperty({ type: [ArticleResponse] })
  items: ArticleResponse[];

  @ApiProperty({ description: 'Page size used' })
  limit: number;

  @ApiProperty({ description: 'Records skipped' })
  offset: number;

  @ApiProperty({ description: 'All matching records' })
  total: number;
}

export class ArticleStatusResponse {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ARTICLE_STATUSES })
  status: string;
}

/** A body in the format asked for: the one of the three fields the format names (a draft's, a revision's). */
class ContentInFormat {
  @ApiPropertyOptional()
  contentHtml?: string;

  @ApiPropertyOptional()
  contentMarkdown?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  contentJson?: Record<string, unknown>;
}

class ArticleDraftFields {
  @ApiProperty({ example: 'drf_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty()
  articleId: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true, description: 'The live revision the draft started from (null before first publish)' })
  baseRevisionId: string | null;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class ArticleDraftResponse extends IntersectionType(ArticleDraftFields, ContentInFormat) {
  static from(draft: DraftView, format: ContentFormat): ArticleDraftResponse {
    const response: ArticleDraftResponse = {
      id: draft.id,
      articleId: draft.articleId,
      title: draft.title,
      baseRevisionId: draft.baseRevisionId,
      updatedAt: draft.updatedAt.toISOString(),
    };
    return { ...response, ...(contentField(format, draft.content) as Pick<ArticleDraftResponse, 'contentHtml' | 'contentMarkdown' | 'contentJson'>) };
  }
}

export class RevisionSummaryResponse {
  @ApiProperty({ example: 'rev_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty()
  articleId: string;

  @ApiProperty({ example: 3 })
  version: number;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true, description: 'The API key that wrote it' })
  createdByKeyId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  static from(revision: ArticleRevision): RevisionSummaryResponse {
    return {
      id: revision.id,
      articleId: revision.articleId,
      version: revision.version,
      title: revision.title,
      createdByKeyId: revision.createdByKeyId,
      createdAt: revision.createdAt.toISOString(),
    };
  }
}

export class RevisionResponse extends IntersectionType(RevisionSummaryResponse, ContentInFormat) {
  static withContent(revision: ArticleRevision, format: ContentFormat): RevisionResponse {
    const fields = contentField(format, renderingOf(revision.content, format)) as Pick<RevisionResponse, 'contentHtml' | 'contentMarkdown' | 'contentJson'>;
    return { ...RevisionSummaryResponse.from(revision), ...fields };
  }
}

export class RevisionPage extends CursorPageOf(RevisionSummaryResponse, 'RevisionPage') {}

class RevisionRef {
  @ApiProperty()
  revisionId: string;

  @ApiProperty()
  version: number;
}

export class RevisionDiffResponse {
  @ApiProperty()
  articleId: string;

  @ApiProperty({ type: RevisionRef })
  from: RevisionRef;

  @ApiProperty({ type: RevisionRef })
  to: RevisionRef;

  @ApiProperty()
  changed: boolean;

  @ApiProperty({ description: 'Unified Markdown line diff (jsdiff)' })
  diff: string;

  @ApiProperty()
  addedLines: number;

  @ApiProperty()
  removedLines: number;

  @ApiProperty({ description: 'True when the diff was cut at 1 MiB or 20 000 lines' })
  truncated: boolean;

  static from(diff: RevisionDiff): RevisionDiffResponse {
    return { ...diff, from: { ...diff.from }, to: { ...diff.to } };
  }
}

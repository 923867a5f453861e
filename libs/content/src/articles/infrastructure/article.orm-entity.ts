import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '#core';

@Entity('articles')
export class ArticleOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  helpdeskId: string;

  @Column('text')
  sectionId: string;

  @Column('text', { nullable: true })
  collectionId: string | null;

  @Column('text')
  status: 'draft' | 'published' | 'trashed';

  @Column('text', { nullable: true })
  statusBeforeTrash: 'draft' | 'published' | null;

  @Column('text')
  slug: string;

  @Column('boolean')
  customSlug: boolean;

  @Column('text', { nullable: true })
  keywords: string | null;

  @Column('text', { nullable: true })
  metaDescription: string | null;

  @Column('text', { nullable: true })
  ogImage: string | null;

  @Column('integer')
  latestVersion: number;

  /** Bumped by every update: the article's ETag (two writes in one millisecond still differ). */
  @Column('integer', { default: 0 })
  rowVersion: number;

  @Column('text', { nullable: true })
  currentRevisionId: string | null;

  @Column('text', { nullable: true })
  liveRevisionId: string | null;

  @TimestampColumn({ nullable: true })
  publishedAt: Date | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

@Entity('article_revisions')
export class ArticleRevisionOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  articleId: string;

  @Column('integer')
  version: number;

  @Column('text')
  title: string;

  @Column('jsonb')
  contentJson: Record<string, unknown>;

  @Column('text')
  contentMarkdown: string;

  @Column('text')
  contentHtml: string;

  @Column('text', { nullable: true })
  createdByKeyId: string | null;

  @TimestampColumn()
  createdAt: Date;

  /** When the revision first went live; null for one that never was (a draft, or a version before the first publish). */
  @TimestampColumn({ nullable: true })
  wentLiveAt: Date | null;
}

@Entity('article_drafts')
export class ArticleDraftOrmEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  articleId: string;

  @Column('text')
  revisionId: string;

  @Column('text', { nullable: true })
  baseRevisionId: string | null;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

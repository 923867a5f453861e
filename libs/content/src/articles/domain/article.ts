import { InvalidStateError, newId, ValidationError } from '#core/domain';

export const ARTICLE_STATUSES = ['draft', 'published', 'trashed'] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** Content of one version, as stored: the document and its renderings, made at write time so reads never convert. */
export interface ArticleContent {
  readonly json: Record<string, unknown>;
  readonly markdown: string;
  readonly html: string;
}

/** An immutable version of an article's title and body. */
export interface ArticleRevision {
  readonly id: string;
  readonly articleId: string;
  readonly version: number;
  readonly title: string;
  readonly content: ArticleContent;
  readonly createdByKeyId: string | null;
  readonly createdAt: Date;
  /** When it first went live; null for a revision that never was (a saved draft, a version before the first publish). */
  readonly wentLiveAt: Date | null;
}

/** The open draft: the revision being edited and the live revision it started from (null before first publish). */
export interface ArticleDraft {
  readonly id: string;
  readonly articleId: string;
  revisionId: string;
  readonly baseRevisionId: string | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

export interface ArticleSeo {
  keywords: string | null;
  metaDescription: string | null;
  ogImage: string | null;
}

export interface ArticleProps extends ArticleSeo {
  readonly id: string;
  readonly helpdeskId: string;
  sectionId: string;
  collectionId: string | null;
  status: ArticleStatus;
  statusBeforeTrash: 'draft' | 'published' | null;
  slug: string;
  customSlug: boolean;
  latestVersion: number;
  /** The revision the article shows: the live one when published, the draft's otherwise. */
  currentRevisionId: string | null;
  liveRevisionId: string | null;
  publishedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/**
 * A help article. Content lives in revisions; the article tracks which revision is live (published) and which
 * one it shows, its place (section, collection), its slug and SEO fields, and its state:
 * draft → published → draft (unpublish); any → trashed → the state before.
 */
export class Article {
  constructor(private readonly props: ArticleProps) {}

  static create(input: { helpdeskId: string; sectionId: string; collectionId: string | null; slug: string; customSlug: boolean } & ArticleSeo, at: Date): Article {
    assertOgImage(input.ogImage);
    return new Article({
      id: newId('art'),
      ...input,
      status: 'draft',
      statusBeforeTrash: null,
      latestVersion: 0,
      currentRevisionId: null,
      liveRevisionId: null,
      publishedAt: null,
      createdAt: at,
      updatedAt: at,
    });
  }

  get id(): string {
    return this.props.id;
  }

  get status(): ArticleStatus {
    return this.props.status;
  }

  get liveRevisionId(): string | null {
    return this.props.liveRevisionId;
  }

  get currentRevisionId(): string | null {
    return this.props.currentRevisionId;
  }

  get slug(): string {
    return this.props.slug;
  }

  get customSlug(): boolean {
    return this.props.customSlug;
  }

  snapshot(): Readonly<ArticleProps> {
    return { ...this.props };
  }

  /** Records a new version of title and body; it becomes the shown one unless the article is live. */
  addRevision(title: string, content: ArticleContent, keyId: string | null, at: Date): ArticleRevision {
    this.assertNotTrashed('edit');
    this.props.latestVersion += 1;
    const revision: ArticleRevision = {
      id: newId('rev'),
      articleId: this.props.id,
      version: this.props.latestVersion,
      title,
      content,
      createdByKeyId: keyId,
      createdAt: at,
      wentLiveAt: null,
    };
    if (this.props.status !== 'published') this.props.currentRevisionId = revision.id;
    this.props.updatedAt = at;
    return revision;
  }

  /** Makes `revision` live. */
  publish(revision: ArticleRevision, at: Date): void {
    this.assertNotTrashed('publish');
    this.props.status = 'published';
    this.props.liveRevisionId = revision.id;
    this.props.currentRevisionId = revision.id;
    this.props.publishedAt = at;
    this.props.updatedAt = at;
  }

  /** Takes the article offline; its last live content becomes what it shows (and the open draft). */
  unpublish(at: Date): void {
    if (this.props.status !== 'published') throw new InvalidStateError(`Article ${this.props.id} is not published`);
    this.props.status = 'draft';
    this.props.liveRevisionId = null;
    this.props.updatedAt = at;
  }

  /** Shows another of its revisions (the draft's after an unpublish, the live one after a draft is discarded). */
  show(revisionId: string, at?: Date): void {
    this.props.currentRevisionId = revisionId;
    if (at) this.props.updatedAt = at;
  }

  trash(at: Date): void {
    if (this.props.status === 'trashed') throw new InvalidStateError(`Article ${this.props.id} is already trashed`);
    this.props.statusBeforeTrash = this.props.status;
    this.props.status = 'trashed';
    this.props.updatedAt = at;
  }

  /** Back to the state held before trashing. */
  restore(at: Date): ArticleStatus {
    if (this.props.status !== 'trashed') throw new InvalidStateError(`Article ${this.props.id} is not trashed`);
    this.props.status = this.props.statusBeforeTrash ?? 'draft';
    this.props.statusBeforeTrash = null;
    this.props.updatedAt = at;
    return this.props.status;
  }

  /** The status the article would return to on restore (to decide which scope restoring needs). */
  get statusBeforeTrash(): 'draft' | 'published' | null {
    return this.props.statusBeforeTrash;
  }

  moveTo(sectionId: string, collectionId: string | null, at: Date): void {
    this.assertNotTrashed('move');
    this.props.sectionId = sectionId;
    this.props.collectionId = collectionId;
    this.props.updatedAt = at;
  }

  /** A given slug switches the article to custom slug mode: later title changes keep it. */
  setSlug(slug: string, custom: boolean, at: Date): void {
    this.props.slug = slug;
    this.props.customSlug = this.props.customSlug || custom;
    this.props.updatedAt = at;
  }

  updateSeo(seo: Partial<ArticleSeo>, at: Date): void {
    if (seo.ogImage !== undefined) assertOgImage(seo.ogImage);
    if (seo.keywords !== undefined) this.props.keywords = seo.keywords;
    if (seo.metaDescription !== undefined) this.props.metaDescription = seo.metaDescription;
    if (seo.ogImage !== undefined) this.props.ogImage = seo.ogImage;
    this.props.updatedAt = at;
  }

  /** Whether applying `seo` and `slug` would change what readers of the live article see (its URL, its SEO fields). */
  changesLiveFields(seo: Partial<ArticleSeo>, slug: string | undefined): boolean {
    if (this.props.status !== 'published') return false;
    return (
      (slug !== undefined && slug !== this.props.slug) ||
      (seo.keywords !== undefined && seo.keywords !== this.props.keywords) ||
      (seo.metaDescription !== undefined && seo.metaDescription !== this.props.metaDescription) ||
      (seo.ogImage !== undefined && seo.ogImage !== this.props.ogImage)
    );
  }

  private assertNotTrashed(action: string): void {
    if (this.props.status === 'trashed') throw new InvalidStateError(`Article ${this.props.id} is trashed; restore it to ${action} it`);
  }
}

/** An Open Graph image is fetched by every site a link is shared on: an absolute http(s) URL, nothing else. */
function assertOgImage(value: string | null): void {
  if (value === null) return;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) {
    throw ValidationError.field('ogImage', 'ogImage must be an absolute http(s) URL');
  }
}

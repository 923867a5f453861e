/** Limits out of the way for suites that create many articles (the limits have suites of their own). */
export const NO_LIMITS = { RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '100000', RATE_LIMIT_REQUESTS_PER_MINUTE: '100000' };

/** Every field of the article object with format=html, sorted; create and PATCH add draft_id. */
export const ARTICLE_KEYS = [
  'collectionId',
  'contentHtml',
  'createdAt',
  'id',
  'keywords',
  'metaDescription',
  'ogImage',
  'publishedAt',
  'sectionId',
  'slug',
  'status',
  'title',
  'updatedAt',
  'url',
];

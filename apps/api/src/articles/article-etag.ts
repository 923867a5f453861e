import type { ArticleRecord } from '#content';
import { ifMatchTags } from '../common/if-match.js';

/** The entity tag of an article's state: its ID and version, which changes with every write. */
export function articleEtag(record: Pick<ArticleRecord, 'props' | 'rowVersion'>): string {
  return `"${record.props.id}.${record.rowVersion}"`;
}

/**
 * `If-Match` on article `id` as the versions the writer expects it at: undefined without the header or with `*`
 * (any current article: writing to one that does not exist is a 404 anyway); otherwise the versions of the strong
 * tags naming this article, none when no tag does (then no version matches: 412).
 */
export function expectedArticleVersions(header: string | undefined, id: string): readonly number[] | undefined {
  const tags = ifMatchTags(header);
  if (tags === undefined || tags === '*') return undefined;
  const prefix = `"${id}.`;
  return tags
    .filter((tag) => tag.startsWith(prefix) && tag.endsWith('"'))
    .map((tag) => tag.slice(prefix.length, -1))
    .filter((version) => /^(0|[1-9]\d{0,9})$/.test(version))
    .map(Number);
}

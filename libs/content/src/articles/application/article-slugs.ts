import { Injectable } from '@nestjs/common';
import { ValidationError } from '#core';
import { SlugTakenError } from '../domain/article-errors.js';
import { SLUG_PATTERN, slugify } from '../domain/slug.js';
import { ArticleRepository } from './article.repository.js';

/** Unique slugs per helpdesk: generated from titles, or given (custom), which must be free. */
@Injectable()
export class ArticleSlugs {
  constructor(private readonly articles: ArticleRepository) {}

  /** A free slug from the title: `title`, `title-2`, `title-3`… */
  async generate(title: string, articleId?: string): Promise<string> {
    // Two writers would both find `title` free, and the slower one would fail the unique constraint with a
    // slug_taken it never asked for: writers of one base take turns.
    const base = slugify(title);
    await this.articles.lockSlug(base);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await this.articles.slugExists(candidate, articleId))) return candidate;
    }
  }

  /** A slug the client chose: well-formed, and not another article's (409 slug_taken). */
  async claim(slug: string, articleId?: string): Promise<string> {
    if (!SLUG_PATTERN.test(slug) || slug.length > 200) {
      throw ValidationError.field('slug', 'slug must be lowercase letters and digits in dash-separated words (at most 200 characters)');
    }
    // The base a generated slug would have (`title` for `title-2`), so a claim and a generation cannot cross.
    await this.articles.lockSlug(slug.replace(/-\d+$/, ''));
    if (await this.articles.slugExists(slug, articleId)) throw new SlugTakenError(slug);
    return slug;
  }
}

import { Injectable } from '@nestjs/common';
import { ValidationError } from '#core';
import { fromJson, parseMarkdown, renderContent, unsafeLinks } from '../../content-format/index.js';
import { ArticleImages } from '../../images/application/article-images.js';
import type { ArticleContent } from '../domain/article.js';

/** A body as a request gives it: ProseMirror JSON or Markdown, never both. */
export interface BodyInput {
  readonly content?: unknown;
  readonly markdown?: string;
}

/**
 * Turns a request body into stored content: validates it against the schema, uploads its images (the stored
 * JSON holds asset paths) and renders Markdown and HTML once, at write time, with the images' full static URLs,
 * so that reads never convert.
 */
@Injectable()
export class ArticleBodies {
  constructor(private readonly images: ArticleImages) {}

  /** The rendered content, or undefined when the input carries no body. */
  async fromInput(input: BodyInput): Promise<ArticleContent | undefined> {
    const hasContent = input.content !== undefined;
    const hasMarkdown = input.markdown !== undefined;
    if (hasContent && hasMarkdown) {
      throw new ValidationError('Give the body as content or as markdown, not both', [
        { field: 'content', message: 'content and markdown are mutually exclusive' },
      ]);
    }
    if (!hasContent && !hasMarkdown) return undefined;
    const parsed = hasContent ? fromJson(input.content) : parseMarkdown(input.markdown!);
    const unsafe = unsafeLinks(parsed);
    if (unsafe.length > 0) {
      const field = hasContent ? 'content' : 'markdown';
      throw new ValidationError(
        'Links must be http(s), mailto or relative URLs',
        unsafe.slice(0, 20).map((link) => ({ field, message: `${link.where} ${JSON.stringify(link.href.slice(0, 100))} is not an http(s), mailto or relative URL` })),
      );
    }
    const doc = await this.images.upload(parsed, hasContent ? 'content' : 'markdown');
    const rendered = renderContent(doc, { assetUrl: (src) => this.images.publicUrl(src) });
    return { json: rendered.json, markdown: rendered.markdown, html: rendered.html };
  }

  /** The content of an article created without a body. */
  empty(): ArticleContent {
    const rendered = renderContent(parseMarkdown(''));
    return { json: rendered.json, markdown: rendered.markdown, html: rendered.html };
  }
}

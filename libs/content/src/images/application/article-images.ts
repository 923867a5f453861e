import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Node } from 'prosemirror-model';
import { AppConfig, DomainError, type ErrorDetail, ObjectStorage, ValidationError } from '#core';
import { imageSources, mapImageSources } from '../../content-format/index.js';
import { detectImageType } from '../domain/image-type.js';
import { abbreviate, ASSET_PATH_PREFIX, assetPath, classifyImageSource, type ImageSource, MALFORMED_DATA_URL, storageKeyOf } from '../domain/image-source.js';
import { ImageUnavailableError, RemoteImageFetcher } from './remote-image-fetcher.port.js';

/** Remote images fetched at once per write. */
const FETCH_CONCURRENCY = 4;

type Outcome = { readonly path: string } | { readonly failure: string; readonly missing?: true };

/**
 * The image pass of every article write, run before anything is saved: each distinct image source of the
 * document is uploaded once (data URLs decoded, remote URLs fetched safely, hosted images checked) and replaced
 * by its asset path `/user-images/<sha256>.<ext>`. Identical bytes share one object, across requests too.
 */
@Injectable()
export class ArticleImages {
  private readonly logger = new Logger(ArticleImages.name);

  constructor(
    private readonly config: AppConfig,
    private readonly storage: ObjectStorage,
    private readonly fetcher: RemoteImageFetcher,
  ) {}

  /** The full URL a reader's browser loads for a stored src; other sources are returned as they are. */
  publicUrl(src: string): string {
    return src.startsWith(ASSET_PATH_PREFIX) ? `${this.config.http.staticUrl}${src}` : src;
  }

  /**
   * The document with every image src replaced by its asset path. 400 invalid_request for a source that is not
   * accepted (nothing is fetched then), 502 image_upload_failed when any image cannot be fetched or stored.
   */
  async upload(doc: Node, field: string): Promise<Node> {
    const distinct = [...new Set(imageSources(doc))];
    if (distinct.length === 0) return doc;
    const sources = new Map(distinct.map((src) => [src, classifyImageSource(src, this.config.http.staticUrl)] as const));
    this.rejectInvalid(sources, field);
    const outcomes = new Map<string, Outcome>();
    const hosted = [...sources].filter(([, source]) => source.kind === 'hosted');
    await forEachLimited(hosted, FETCH_CONCURRENCY, async ([src, source]) => {
      outcomes.set(src, await this.store(source));
    });
    const missing = hosted.filter(([src]) => (outcomes.get(src) as Outcome & { missing?: true }).missing);
    if (missing.length > 0) {
      const details = missing.map(([src]) => ({ field, message: `Image ${abbreviate(src)} is not an image hosted by this help center` }));
      throw new ValidationError(details[0].message, details);
    }
    const uploads = [...sources].filter(([, source]) => source.kind !== 'hosted');
    await forEachLimited(uploads, FETCH_CONCURRENCY, async ([src, source]) => {
      outcomes.set(src, await this.store(source));
    });
    const failures: ErrorDetail[] = [];
    for (const src of distinct) {
      const outcome = outcomes.get(src)!;
      if ('failure' in outcome) failures.push({ field, message: `${abbreviate(src)}: ${outcome.failure}` });
    }
    if (failures.length > 0) throw new DomainError('image_upload_failed', 'Unable to upload one or more article images', failures);
    return mapImageSources(doc, (src) => (outcomes.get(src) as { path: string }).path);
  }

  private rejectInvalid(sources: ReadonlyMap<string, ImageSource>, field: string): void {
    const invalid = [...sources.values()].filter((s): s is Extract<ImageSource, { kind: 'invalid' }> => s.kind === 'invalid');
    if (invalid.length === 0) return;
    const details = [...new Set(invalid.map((s) => s.message))].map((message) => ({ field, message }));
    const malformed = invalid.some((s) => s.message === MALFORMED_DATA_URL);
    throw new ValidationError(malformed ? MALFORMED_DATA_URL : details[0].message, details);
  }

  private async store(source: ImageSource): Promise<Outcome> {
    const maxBytes = this.config.images.maxBytes;
    try {
      switch (source.kind) {
        case 'hosted':
          return (await this.storage.exists(storageKeyOf(source.path))) ? { path: source.path } : { failure: 'no such hosted image', missing: true };
        case 'data':
          if (source.bytes.length > maxBytes) return { failure: `larger than ${maxBytes} bytes` };
          return await this.save(source.bytes);
        case 'remote':
          return await this.save(await this.fetcher.fetch(source.url, maxBytes));
        case 'invalid':
          return { failure: source.message };
      }
    } catch (error) {
      if (error instanceof ImageUnavailableError) return { failure: error.message };
      // Storage errors may carry endpoints or bucket names: logged, not shown.
      this.logger.warn(`Image upload failed: ${(error as Error).message}`);
      return { failure: 'the image could not be stored' };
    }
  }

  private async save(bytes: Buffer): Promise<Outcome> {
    const type = detectImageType(bytes);
    if (!type) return { failure: 'not a PNG, JPEG, GIF, WebP or AVIF image' };
    const path = assetPath(createHash('sha256').update(bytes).digest('hex'), type.extension);
    await this.storage.putIfAbsent(storageKeyOf(path), bytes, type.contentType);
    return { path };
  }
}

async function forEachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

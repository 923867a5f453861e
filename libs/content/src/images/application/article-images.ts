import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Node } from 'prosemirror-model';
import { DomainError, type ErrorDetail, HttpConfig, ImageConfig, ObjectStorage, ValidationError } from '#core';
import { imageSources, mapImageSources } from '../../content-format/index.js';
import { detectImageType } from '../domain/image-type.js';
import { abbreviate, ASSET_PATH_PREFIX, assetPath, classifyImageSource, type ImageSource, MALFORMED_DATA_URL, storageKeyOf } from '../domain/image-source.js';
import { ImageUnavailableError, RemoteImageFetcher } from './remote-image-fetcher.port.js';

/** Remote images fetched at once per write. */
const FETCH_CONCURRENCY = 4;

/** Distinct images one body may hold (they are held in memory until all are fetched). */
const MAX_DISTINCT_IMAGES = 100;

interface Ready {
  readonly bytes: Buffer;
  readonly contentType: string;
  readonly path: string;
}

/**
 * The image pass of every article write, run before anything is saved: each distinct image source of the
 * document is uploaded once (data URLs decoded, remote URLs fetched safely, hosted images checked) and replaced
 * by its asset path `/user-images/<sha256>.<ext>`. Identical bytes share one object, across requests too.
 */
@Injectable()
export class ArticleImages {
  private readonly logger = new Logger(ArticleImages.name);

  constructor(
    private readonly http: HttpConfig,
    private readonly images: ImageConfig,
    private readonly storage: ObjectStorage,
    private readonly fetcher: RemoteImageFetcher,
  ) {}

  /** The full URL a reader's browser loads for a stored src; other sources are returned as they are. */
  publicUrl(src: string): string {
    return src.startsWith(ASSET_PATH_PREFIX) ? `${this.http.staticUrl}${src}` : src;
  }

  /**
   * The document with every image src replaced by its asset path. 400 invalid_request for a source that is not
   * accepted or a hosted image that does not exist (nothing is fetched then); 502 image_upload_failed when any
   * image cannot be fetched or is not an image. Every image is fetched and checked before the first one is
   * stored, so a failed write stores nothing.
   */
  async upload(doc: Node, field: string): Promise<Node> {
    const distinct = [...new Set(imageSources(doc))];
    if (distinct.length === 0) return doc;
    if (distinct.length > MAX_DISTINCT_IMAGES) {
      throw ValidationError.field(field, `A body may hold at most ${MAX_DISTINCT_IMAGES} distinct images; it holds ${distinct.length}`);
    }
    const sources = new Map(distinct.map((src) => [src, classifyImageSource(src, this.http.staticUrl)] as const));
    this.rejectInvalid(sources, field);
    const paths = new Map<string, string>();
    await this.checkHosted(sources, paths, field);

    const ready = new Map<string, Ready>();
    const failures = new Map<string, string>();
    const uploads = [...sources].filter((entry): entry is [string, Extract<ImageSource, { kind: 'data' | 'remote' }>] => entry[1].kind === 'data' || entry[1].kind === 'remote');
    await forEachLimited(uploads, FETCH_CONCURRENCY, async ([src, source]) => {
      const outcome = await this.load(source);
      if ('failure' in outcome) failures.set(src, outcome.failure);
      else ready.set(src, outcome);
    });
    this.failIfAny(distinct, failures, field);

    await forEachLimited([...ready], FETCH_CONCURRENCY, async ([src, image]) => {
      try {
        await this.storage.putIfAbsent(storageKeyOf(image.path), image.bytes, image.contentType);
        paths.set(src, image.path);
      } catch (error) {
        // Storage errors may carry endpoints or bucket names: logged, not shown.
        this.logger.warn(`Image upload failed: ${(error as Error).message}`);
        failures.set(src, 'the image could not be stored');
      }
    });
    this.failIfAny(distinct, failures, field);
    return mapImageSources(doc, (src) => paths.get(src)!);
  }

  private rejectInvalid(sources: ReadonlyMap<string, ImageSource>, field: string): void {
    const invalid = [...sources.values()].filter((s): s is Extract<ImageSource, { kind: 'invalid' }> => s.kind === 'invalid');
    if (invalid.length === 0) return;
    const details = [...new Set(invalid.map((s) => s.message))].map((message) => ({ field, message }));
    const malformed = invalid.some((s) => s.message === MALFORMED_DATA_URL);
    throw new ValidationError(malformed ? MALFORMED_DATA_URL : details[0].message, details);
  }

  /** Hosted sources must exist: 400 for one that does not, 502 when storage cannot say. */
  private async checkHosted(sources: ReadonlyMap<string, ImageSource>, paths: Map<string, string>, field: string): Promise<void> {
    const missing: string[] = [];
    const failures = new Map<string, string>();
    const hosted = [...sources].filter((entry): entry is [string, Extract<ImageSource, { kind: 'hosted' }>] => entry[1].kind === 'hosted');
    await forEachLimited(hosted, FETCH_CONCURRENCY, async ([src, source]) => {
      try {
        if (await this.storage.exists(storageKeyOf(source.path))) paths.set(src, source.path);
        else missing.push(src);
      } catch (error) {
        this.logger.warn(`Image lookup failed: ${(error as Error).message}`);
        failures.set(src, 'the hosted image could not be checked');
      }
    });
    if (missing.length > 0) {
      const details = missing.map((src) => ({ field, message: `Image ${abbreviate(src)} is not an image hosted by this help center` }));
      throw new ValidationError(details[0].message, details);
    }
    this.failIfAny([...sources.keys()], failures, field);
  }

  private failIfAny(order: readonly string[], failures: ReadonlyMap<string, string>, field: string): void {
    if (failures.size === 0) return;
    const details: ErrorDetail[] = order.filter((src) => failures.has(src)).map((src) => ({ field, message: `${abbreviate(src)}: ${failures.get(src)}` }));
    throw new DomainError('image_upload_failed', 'Unable to upload one or more article images', details);
  }

  /** The bytes of a data URL or a remote image, checked to be an image, with the path they will be stored under. */
  private async load(source: Extract<ImageSource, { kind: 'data' | 'remote' }>): Promise<Ready | { failure: string }> {
    const maxBytes = this.images.maxBytes;
    let bytes: Buffer;
    if (source.kind === 'data') {
      if (source.bytes.length > maxBytes) return { failure: `larger than ${maxBytes} bytes` };
      bytes = source.bytes;
    } else {
      try {
        bytes = await this.fetcher.fetch(source.url, maxBytes);
      } catch (error) {
        if (error instanceof ImageUnavailableError) return { failure: error.message };
        throw error;
      }
    }
    const type = detectImageType(bytes);
    if (!type) return { failure: 'not a PNG, JPEG, GIF, WebP or AVIF image' };
    return { bytes, contentType: type.contentType, path: assetPath(createHash('sha256').update(bytes).digest('hex'), type.extension) };
  }
}

async function forEachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

import { Injectable } from '@nestjs/common';
import { strongEtag } from './page-response.js';

/** A rendered page as it is sent: the body, its entity tag and what the response headers need. */
export interface KeptPage {
  readonly body: string;
  readonly etag: string;
  readonly contentType: string;
  readonly lastModified: Date | null;
  readonly contentLanguage: string | null;
}

interface Entry {
  readonly version: string;
  readonly page: KeptPage;
  readonly size: number;
}

/** A page larger than this is not kept (a sitemap of many thousand articles is re-read each time instead). */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * The public pages this process rendered, each under the help center content version it read before reading the
 * page's content (GetHelpCenterVersionUseCase). A kept page is served only while the version is still that one: a
 * change committed anywhere (on any process) raises the version, so the next request renders afresh, and a page
 * is never older than the version the request saw. Keys name what makes a page: the route, language and
 * parameters (not arbitrary query strings, so a crawler's `?utm=` cannot fill it). Only pages found are kept, so
 * requests for made-up slugs cannot grow it. Least recently used pages go first past `maxBytes`
 * (HELP_CENTER_PAGE_CACHE_MB; a page's size counted as its UTF-16 length × 2, about what V8 holds); 0 keeps none.
 */
@Injectable()
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The page kept under `key` if it was rendered at `version`; a page of another version is dropped. */
  get(key: string, version: string): KeptPage | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.size;
      return null;
    }
    this.entries.set(key, entry);
    return entry.page;
  }

  /** Keeps a page rendered after reading `version`; returns it with its entity tag. */
  keep(key: string, version: string, page: Omit<KeptPage, 'etag'>): KeptPage {
    const kept: KeptPage = { ...page, etag: strongEtag(page.body) };
    const size = page.body.length * 2 + key.length * 2 + 256;
    if (size > MAX_PAGE_BYTES || size > this.maxBytes) return kept;
    const replaced = this.entries.get(key);
    // A slower render of an older version does not displace a newer one.
    if (replaced && BigInt(replaced.version) > BigInt(version)) return kept;
    if (replaced) {
      this.entries.delete(key);
      this.bytes -= replaced.size;
    }
    this.entries.set(key, { version, page: kept, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
    return kept;
  }

  /** How many pages and bytes are kept (tests, diagnostics). */
  get size(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }
}

import { describe, expect, it } from '@jest/globals';
import { PageCache } from './page-cache.js';
import { strongEtag } from './page-response.js';

const page = (body: string) => ({ body, contentType: 'text/html; charset=utf-8', lastModified: null, contentLanguage: 'en' });
/** What one kept page of `chars` characters under a key of `key.length` counts for. */
const sizeOf = (key: string, chars: number) => chars * 2 + key.length * 2 + 256;

describe('PageCache', () => {
  it('gives a page back only at the version it was kept under, with its strong ETag', () => {
    const cache = new PageCache(1024 * 1024);
    const kept = cache.keep('article||a|', '7', page('<p>A</p>'));
    expect(kept.etag).toBe(strongEtag('<p>A</p>'));
    expect(cache.get('article||a|', '7')).toEqual(kept);
    expect(cache.get('article||b|', '7')).toBeNull();
    expect(cache.get('article||a|', '8')).toBeNull();
    // A page of another version is dropped, not kept for later.
    expect(cache.size).toEqual({ pages: 0, bytes: 0 });
    expect(cache.get('article||a|', '7')).toBeNull();
  });

  it('a slower render of an older version does not displace a newer one; a newer one replaces an older one', () => {
    const cache = new PageCache(1024 * 1024);
    cache.keep('home|', '10', page('new'));
    cache.keep('home|', '9', page('old'));
    expect(cache.get('home|', '10')?.body).toBe('new');
    cache.keep('home|', '11', page('newer'));
    expect(cache.get('home|', '11')?.body).toBe('newer');
    expect(cache.size).toEqual({ pages: 1, bytes: sizeOf('home|', 5) });
  });

  it('holds at most its byte budget, dropping the least recently used first', () => {
    const budget = sizeOf('k1', 100) * 3;
    const cache = new PageCache(budget);
    for (const key of ['k1', 'k2', 'k3']) cache.keep(key, '1', page('x'.repeat(100)));
    expect(cache.get('k1', '1')).not.toBeNull(); // k2 is now the least recently used
    cache.keep('k4', '1', page('x'.repeat(100)));
    expect(cache.get('k2', '1')).toBeNull();
    for (const key of ['k1', 'k3', 'k4']) expect(cache.get(key, '1')).not.toBeNull();
    expect(cache.size).toEqual({ pages: 3, bytes: budget });
  });

  it('with no budget keeps nothing, and never keeps a page larger than 4 MB', () => {
    const none = new PageCache(0);
    expect(none.keep('home|', '1', page('hello')).body).toBe('hello');
    expect(none.size).toEqual({ pages: 0, bytes: 0 });
    const cache = new PageCache(64 * 1024 * 1024);
    cache.keep('sitemap', '1', page('x'.repeat(3 * 1024 * 1024)));
    expect(cache.size.pages).toBe(0);
  });
});

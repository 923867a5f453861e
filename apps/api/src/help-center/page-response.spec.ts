import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import { contentSecurityPolicy, isNotModified, strongEtag } from './page-response.js';

function request(headers: Record<string, string>, method = 'GET'): Request {
  return { method, headers } as unknown as Request;
}

describe('page caching and headers', () => {
  const etag = strongEtag('<!DOCTYPE html><p>page</p>');
  const modified = new Date('2026-11-20T10:30:00.750Z');

  it('a strong ETag is the hash of the body', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(strongEtag('<!DOCTYPE html><p>page</p>')).toBe(etag);
    expect(strongEtag('<!DOCTYPE html><p>page!</p>')).not.toBe(etag);
  });

  it.each([
    ['the same tag', { 'if-none-match': etag }, true],
    ['one of several', { 'if-none-match': `"other", ${etag}` }, true],
    ['the weak form of it', { 'if-none-match': `W/${etag}` }, true],
    ['*', { 'if-none-match': '*' }, true],
    ['another tag', { 'if-none-match': '"other"' }, false],
    ['another tag, whatever If-Modified-Since says', { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 20 Nov 2026 10:30:00 GMT' }, false],
    ['If-Modified-Since at Last-Modified (seconds)', { 'if-modified-since': 'Fri, 20 Nov 2026 10:30:00 GMT' }, true],
    ['If-Modified-Since later', { 'if-modified-since': 'Fri, 20 Nov 2026 11:00:00 GMT' }, true],
    ['If-Modified-Since earlier', { 'if-modified-since': 'Fri, 20 Nov 2026 10:29:59 GMT' }, false],
    ['an unreadable date', { 'if-modified-since': 'yesterday' }, false],
    ['no validator', {}, false],
  ])('304 or not: %s', (_label, headers, expected) => {
    expect(isNotModified(request(headers), etag, modified)).toBe(expected);
  });

  it('only for GET and HEAD', () => {
    expect(isNotModified(request({ 'if-none-match': etag }, 'HEAD'), etag, modified)).toBe(true);
    expect(isNotModified(request({ 'if-none-match': etag }, 'POST'), etag, modified)).toBe(false);
  });

  it('the CSP: nothing inline, images from the image store and https, frames refused', () => {
    expect(contentSecurityPolicy('https://cdn.example.com/static')).toBe(
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https://cdn.example.com https: data:; form-action 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});

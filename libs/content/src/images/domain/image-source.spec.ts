import { describe, expect, it } from '@jest/globals';
import { abbreviate, assetName, assetPath, classifyImageSource, MALFORMED_DATA_URL, storageKeyOf } from './image-source.js';

const STATIC_URL = 'https://help.example.com/static';
const HASH = '0123456789abcdef'.repeat(4);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_BASE64 = PNG_SIGNATURE.toString('base64'); // iVBORw0KGgo=

const classify = (src: string) => classifyImageSource(src, STATIC_URL);

describe('classifyImageSource', () => {
  describe('data URLs', () => {
    it('decodes a base64 image data URL', () => {
      expect(classify(`data:image/png;base64,${PNG_BASE64}`)).toEqual({ kind: 'data', bytes: PNG_SIGNATURE });
    });

    it.each([
      `data:image/png;name=a.png;base64,${PNG_BASE64}`,
      `data:image/png;charset=utf-8;name=a.png;base64,${PNG_BASE64}`,
      `data:image/svg+xml;base64,${PNG_BASE64}`,
      `data:image/vnd.microsoft.icon;base64,${PNG_BASE64}`,
      `DATA:IMAGE/PNG;BASE64,${PNG_BASE64}`,
      `  data:image/png;base64,${PNG_BASE64}\n`,
    ])('decodes %j', (src) => {
      expect(classify(src)).toEqual({ kind: 'data', bytes: PNG_SIGNATURE });
    });

    it.each([
      ['no padding needed', 'AAAA', [0, 0, 0]],
      ['one padding character', 'AAA=', [0, 0]],
      ['two padding characters', 'AA==', [0]],
      ['+ and /', '+/+/', [0xfb, 0xff, 0xbf]],
    ])('accepts standard padded base64: %s', (_case, payload, decoded) => {
      expect(classify(`data:image/gif;base64,${payload}`)).toEqual({ kind: 'data', bytes: Buffer.from(decoded) });
    });

    it.each([
      ['a character outside the alphabet', 'iVBO*w0KGgo='],
      ['the URL-safe alphabet', 'ab-_'],
      ['missing padding', 'iVBORw0KGgo'],
      ['a length that is not a multiple of 4', 'AAAAA'],
      ['too much padding', 'A==='],
      ['padding in the middle', 'AB==AAAA'],
      ['data after the padding', 'ABC=ABCD'],
      ['a space inside', 'iVBO Rw0KGgo='],
      ['a line break inside', 'iVBORw0K\nGgo='],
      ['a tab inside', 'iVBORw0K\tGgo='],
      ['percent-encoding', 'AAA%3D'],
      ['an empty payload', ''],
    ])('refuses a base64 payload with %s', (_case, payload) => {
      expect(classify(`data:image/png;base64,${payload}`)).toEqual({ kind: 'invalid', message: MALFORMED_DATA_URL });
    });

    it.each(['data:image/png,raw', 'data:image/png,%89PNG', 'data:image/png;name=a.png,raw', 'data:image/png;base64', 'data:image/;base64,AAAA', 'data:image/png;name;base64,AAAA'])(
      'refuses an image data URL that is not base64: %j',
      (src) => {
        expect(classify(src)).toEqual({ kind: 'invalid', message: MALFORMED_DATA_URL });
      },
    );

    it.each(['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'data:text/plain,hello', 'data:;base64,AAAA', 'data:application/octet-stream;base64,AAAA'])(
      'refuses a data URL that is not an image: %j',
      (src) => {
        const source = classify(src);
        expect(source.kind).toBe('invalid');
        const message = (source as { message: string }).message;
        expect(message).not.toBe(MALFORMED_DATA_URL);
        expect(message).toMatch(/data URLs must be data:image\/\.\.\.;base64 images/);
        // Only the head of the data URL is echoed, never its payload.
        expect(message).not.toContain('PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg');
      },
    );
  });

  describe('images hosted by this help center', () => {
    it.each(['png', 'jpg', 'gif', 'webp', 'avif'])('takes the full static URL of a .%s asset as its asset path', (extension) => {
      expect(classify(`${STATIC_URL}/user-images/${HASH}.${extension}`)).toEqual({ kind: 'hosted', path: `/user-images/${HASH}.${extension}` });
    });

    it('takes a bare asset path as it is', () => {
      expect(classify(`/user-images/${HASH}.png`)).toEqual({ kind: 'hosted', path: `/user-images/${HASH}.png` });
      expect(classify(` /user-images/${HASH}.webp `)).toEqual({ kind: 'hosted', path: `/user-images/${HASH}.webp` });
    });

    it.each([
      ['a path traversal', '/user-images/../x.png'],
      ['a nested traversal', `/user-images/../../etc/${HASH}.png`],
      ['upper-case hex', `/user-images/${HASH.toUpperCase()}.png`],
      ['an unknown extension', `/user-images/${HASH}.svg`],
      ['.jpeg instead of .jpg', `/user-images/${HASH}.jpeg`],
      ['an upper-case extension', `/user-images/${HASH}.PNG`],
      ['no extension', `/user-images/${HASH}`],
      ['a short hash', `/user-images/${HASH.slice(1)}.png`],
      ['a long hash', `/user-images/${HASH}0.png`],
      ['a non-hex character', `/user-images/${HASH.slice(1)}g.png`],
      ['a subdirectory', `/user-images/a/${HASH}.png`],
      ['a query string', `${STATIC_URL}/user-images/${HASH}.png?v=1`],
      ['a fragment', `/user-images/${HASH}.png#x`],
      ['an empty name', '/user-images/'],
      ['a traversal in the full URL', `${STATIC_URL}/user-images/../x.png`],
    ])('refuses a hosted-looking source with %s', (_case, src) => {
      const source = classify(src);
      expect(source).toEqual({ kind: 'invalid', message: `Image ${src} is not an image hosted by this help center` });
    });
  });

  describe('remote URLs', () => {
    it.each([
      ['https://cdn.example.net/a.png', 'https://cdn.example.net/a.png'],
      ['http://cdn.example.net/a.png?size=2#top', 'http://cdn.example.net/a.png?size=2#top'],
      ['HTTPS://CDN.Example.NET/a b.png', 'https://cdn.example.net/a%20b.png'],
      ['  https://cdn.example.net/a.png  ', 'https://cdn.example.net/a.png'],
      ['http://127.0.0.1:8080/x.png', 'http://127.0.0.1:8080/x.png'],
      // Under the static URL but not an asset: fetched like any other URL.
      [`${STATIC_URL}/logo.png`, `${STATIC_URL}/logo.png`],
      [`https://other.example.com/static/user-images/${HASH}.png`, `https://other.example.com/static/user-images/${HASH}.png`],
    ])('%j is remote', (src, url) => {
      expect(classify(src)).toEqual({ kind: 'remote', url });
    });
  });

  describe('anything else', () => {
    it.each(['ftp://files.example.com/a.png', 'file:///etc/passwd', 'javascript:alert(1)', 'blob:https://x.test/1234', 'img.png', './img.png', 'user-images/a.png', '//cdn.example.com/x.png', '', '   ', 'http://'])(
      'refuses %j',
      (src) => {
        const source = classify(src);
        expect(source.kind).toBe('invalid');
        expect((source as { message: string }).message).toBe(
          `Image ${src} is not accepted: use an absolute http(s) URL, a data:image/...;base64 URL or an image hosted under ${STATIC_URL}/user-images/`,
        );
      },
    );
  });
});

describe('assetName, assetPath and storageKeyOf', () => {
  it('recognizes stored asset names only', () => {
    expect(assetName(`${HASH}.avif`)).toBe(`${HASH}.avif`);
    expect(assetName(`${HASH}.svg`)).toBeNull();
    expect(assetName(`../${HASH}.png`)).toBeNull();
    expect(assetName(`${HASH}.png\n`)).toBeNull();
  });

  it('builds the asset path and its storage key', () => {
    expect(assetPath(HASH, 'png')).toBe(`/user-images/${HASH}.png`);
    expect(storageKeyOf(assetPath(HASH, 'png'))).toBe(`user-images/${HASH}.png`);
  });
});

describe('abbreviate', () => {
  it('cuts a data URL after its comma', () => {
    const long = `data:image/png;base64,${'A'.repeat(100_000)}`;
    expect(abbreviate(long)).toBe('data:image/png;base64,…');
  });

  it('cuts a data URL with a long head at 40 characters', () => {
    const long = `data:image/png;name=a-very-long-file-name-indeed.png;base64,${'A'.repeat(1_000)}`;
    expect(abbreviate(long)).toBe(`${long.slice(0, 40)}…`);
    expect(abbreviate(`data:${'A'.repeat(1_000)}`)).toBe(`data:${'A'.repeat(35)}…`);
  });

  it('cuts URLs longer than 200 characters and leaves shorter ones alone', () => {
    const long = `https://cdn.example.net/${'a'.repeat(300)}.png`;
    expect(abbreviate(long)).toBe(`${long.slice(0, 200)}…`);
    const exact = `https://cdn.example.net/${'a'.repeat(200 - 24)}`;
    expect(exact).toHaveLength(200);
    expect(abbreviate(exact)).toBe(exact);
  });

  it('keeps error messages about a huge data URL short', () => {
    const source = classify(`data:text/html;base64,${'A'.repeat(100_000)}`);
    expect((source as { message: string }).message.length).toBeLessThan(120);
  });
});

describe('classifyImageSource, hosted URLs compared as URLs', () => {
  const name = `${'ab'.repeat(32)}.png`;
  it.each([`HTTPS://HELP.EXAMPLE.COM/static/user-images/${name}`, `https://help.example.com:443/static/user-images/${name}`])('%s is hosted', (src) => {
    expect(classifyImageSource(src, 'https://help.example.com/static')).toEqual({ kind: 'hosted', path: `/user-images/${name}` });
  });

  it('another port or host is remote', () => {
    expect(classifyImageSource(`https://help.example.com:8443/static/user-images/${name}`, 'https://help.example.com/static').kind).toBe('remote');
  });
});

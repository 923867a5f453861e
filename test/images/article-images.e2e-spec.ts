import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { errorBody } from '../support/errors.js';
import { assetPathOf, binary, dataUrl, GIF, HTML, type ImageServer, JPEG, PNG, sha256, srcsOf, startImageServer, SVG, uniquePng, WEBP } from '../support/image-server.js';
import { outcome } from '../support/outcome.js';
import { startTestS3 } from '../support/s3.js';
import { defaultSectionId } from '../support/sections.js';

jest.setTimeout(60_000);

/** STATIC_URL of the test app: PUBLIC_URL (http://help.test) + /static. */
const STATIC_URL = 'http://help.test/static';
const MAX_BYTES = 300_000;
const UPLOAD_FAILED = 'Unable to upload one or more article images';
const MALFORMED = 'Image data URL must contain valid base64 data';
const UNKNOWN_HOSTED = `/user-images/${'0'.repeat(64)}.png`;

type Json = Record<string, unknown>;

function image(src: string, alt = 'picture'): Json {
  return { type: 'image', attrs: { src, alt, title: null } };
}

/** A document of one paragraph holding an image per source. */
function imageDoc(...srcs: string[]): Json {
  return { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'See: ' }, ...srcs.map((src) => image(src))] }] };
}

function imageMarkdown(...srcs: string[]): string {
  return `# Images\n\nSee ${srcs.map((src, i) => `![shot ${i}](${src})`).join(' and ')}.\n`;
}

let counter = 0;
function unique(label: string): string {
  counter += 1;
  return `${label}-${counter}-${process.pid}`;
}

/** The storage key of an asset path (`/user-images/<sha256>.<ext>` is stored as `user-images/<sha256>.<ext>`). */
function keyOf(path: string): string {
  return path.slice(1);
}

/** Where the service stores images, as the tests start it and look into it. */
interface StorageDriver {
  /** STORAGE_DRIVER. */
  readonly name: 'local' | 's3';
  start(): Promise<Storage>;
}

interface Storage {
  /** The settings that point the service at this storage. */
  readonly env: Record<string, string>;
  /** The key of every stored object, sorted. */
  keys(t: TestApp): Promise<string[]>;
  close(): Promise<void>;
}

const DRIVERS: StorageDriver[] = [
  {
    name: 'local',
    async start() {
      return {
        env: { STORAGE_DRIVER: 'local' },
        // Objects are files under DATA_DIR/uploads, named by their key.
        async keys(t) {
          const root = t.config.storage.localDir;
          try {
            const entries = readdirSync(root, { recursive: true, withFileTypes: true });
            return entries
              .filter((entry) => entry.isFile())
              .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
              .sort();
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
            throw error;
          }
        },
        close: async () => undefined,
      };
    },
  },
  {
    name: 's3',
    // A real S3-compatible server (s3rver) with an empty bucket.
    async start() {
      const s3 = await startTestS3();
      return { env: s3.env, keys: () => s3.keys(), close: () => s3.close() };
    },
  },
];

/** Every image rule, once per storage driver: what is stored, served and refused does not depend on where the bytes go. */
describe.each(DRIVERS)('article images ($name storage)', (driver) => {
  let storage: Storage;
  let t: TestApp;
  let images: ImageServer;
  let db: pg.Client;
  let admin: string;
  let sectionId: string;

  async function rows(sql: string): Promise<unknown[]> {
    return (await db.query(sql)).rows as unknown[];
  }

  /** Row counts and rows of every table an article write could touch, for "nothing was written" checks. */
  async function snapshot(): Promise<{ counts: Record<string, number>; rows: Record<string, unknown[]> }> {
    const tables = ['articles', 'article_revisions', 'article_drafts', 'article_translations'];
    const counts: Record<string, number> = {};
    const all: Record<string, unknown[]> = {};
    // One after the other: a pg.Client runs one query at a time.
    for (const table of tables) {
      counts[table] = Number(((await rows(`SELECT count(*) AS n FROM ${table}`))[0] as { n: string }).n);
      all[table] = await rows(`SELECT * FROM ${table} ORDER BY id`);
    }
    return { counts, rows: all };
  }

  /** The key of every object in the storage. */
  function storedKeys(): Promise<string[]> {
    return storage.keys(t);
  }

  function post(body: Json): Promise<Response> {
    return t.http.post('/v1/articles').set(bearer(admin)).send({ title: unique('Images'), sectionId, ...body });
  }

  async function create(body: Json): Promise<Json> {
    const res = await post(body);
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body as Json;
  }

  async function read(id: string, format?: 'json' | 'markdown' | 'html', query: Json = {}): Promise<Response> {
    const res = await t.http
      .get(`/v1/articles/${id}`)
      .query({ ...(format ? { format } : {}), ...query })
      .set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return res;
  }

  async function storedSrcs(id: string): Promise<string[]> {
    return srcsOf((await read(id, 'json')).body.contentJson);
  }

  async function draftSrcs(id: string): Promise<string[]> {
    const res = await t.http.get(`/v1/articles/${id}/draft`).query({ format: 'json' }).set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return srcsOf(res.body.contentJson);
  }

  /** Every rendering of an article (and of its translations' drafts), for "nothing changed" checks. */
  async function outputs(id: string): Promise<unknown> {
    const views: Record<string, unknown> = {};
    for (const format of ['html', 'markdown', 'json'] as const) {
      const res = await read(id, format);
      views[format] = { body: res.body, etag: res.headers['etag'] };
    }
    // A fixed request ID: an error body (404 without a draft) repeats it, and the views are compared across calls.
    const draft = await t.http.get(`/v1/articles/${id}/draft`).query({ format: 'json' }).set(bearer(admin)).set('X-Request-Id', 'article-outputs');
    views.draft = outcome(draft);
    views.translations = outcome(await t.http.get(`/v1/articles/${id}/translations`).set(bearer(admin)));
    return views;
  }

  async function articleCount(): Promise<number> {
    const res = await t.http.get('/v1/articles').query({ status: 'all', page_size: 100 }).set(bearer(admin)).expect(200);
    return (res.body.results as unknown[]).length;
  }

  function getImage(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return t.http.get(`/static${path}`).set(headers).buffer(true).parse(binary);
  }

  function expectUploadFailed(res: Response, source: string, reason?: RegExp): void {
    expect(outcome(res)).toMatchObject({ status: 502, body: { error: UPLOAD_FAILED, code: 'image_upload_failed' } });
    expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'docUrl', 'error', 'requestId']);
    const messages = (res.body.details as Array<{ field: string; message: string }>).map((d) => d.message);
    expect(messages.some((m) => m.includes(source))).toBe(true);
    if (reason) expect(messages.some((m) => reason.test(m))).toBe(true);
  }

  function expectInvalid(res: Response, error?: string): void {
    expect(outcome(res)).toMatchObject({ status: 400, body: { code: 'invalid_request', ...(error ? { error } : {}) } });
    expect(res.body.error).toEqual(expect.any(String));
  }

  beforeAll(async () => {
    storage = await driver.start();
    images = await startImageServer({ oversizedBytes: 2 * MAX_BYTES });
    t = await startTestApp({
      env: {
        ...NO_LIMITS,
        ...storage.env,
        HELPDESK_LANGUAGES: 'en,fr',
        IMAGE_ALLOWED_NETWORKS: '127.0.0.1/32',
        IMAGE_FETCH_TIMEOUT_MS: '1000',
        IMAGE_MAX_BYTES: String(MAX_BYTES),
      },
    });
    expect(t.config.storage.driver).toBe(driver.name);
    db = new pg.Client({ connectionString: t.databaseUrl! });
    await db.connect();
    admin = await t.key(null);
    sectionId = await defaultSectionId(t, admin);
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    await images?.close();
    await storage?.close();
  });

  describe('data URL images', () => {
    it('uploads a data URL image of JSON content: the stored src is its asset path, HTML and Markdown show the static URL', async () => {
      const bytes = uniquePng(unique('json-data'));
      const path = assetPathOf(bytes, 'png');
      const created = await create({ content: imageDoc(dataUrl(bytes)) });
      expect(created.contentHtml).toContain(`src="${STATIC_URL}${path}"`);
      expect(await storedSrcs(created.id as string)).toEqual([path]);
      expect((await read(created.id as string)).body.contentHtml).toContain(`<img src="${STATIC_URL}${path}" alt="picture">`);
      const markdown = (await read(created.id as string, 'markdown')).body.contentMarkdown as string;
      expect(markdown).toContain(`![picture](${STATIC_URL}${path})`);
      expect(markdown).not.toContain('data:');
      expect(await storedKeys()).toContain(keyOf(path));
    });

    it('uploads a data URL image of Markdown the same way', async () => {
      const bytes = uniquePng(unique('markdown-data'));
      const path = assetPathOf(bytes, 'png');
      const created = await create({ markdown: imageMarkdown(dataUrl(bytes)), publish: true });
      expect(await storedSrcs(created.id as string)).toEqual([path]);
      expect((await read(created.id as string)).body.contentHtml).toContain(`src="${STATIC_URL}${path}"`);
      expect((await read(created.id as string, 'markdown')).body.contentMarkdown).toContain(`![shot 0](${STATIC_URL}${path})`);
    });

    it('reads the type from the bytes, not from the data URL label (GIF, WebP, JPEG, a PNG labelled image/jpeg)', async () => {
      const png = uniquePng(unique('labelled-jpeg'));
      const created = await create({ content: imageDoc(dataUrl(GIF, 'image/gif'), dataUrl(WEBP, 'image/webp'), dataUrl(JPEG, 'image/jpeg'), dataUrl(png, 'image/jpeg')) });
      expect(await storedSrcs(created.id as string)).toEqual([assetPathOf(GIF, 'gif'), assetPathOf(WEBP, 'webp'), assetPathOf(JPEG, 'jpg'), assetPathOf(png, 'png')]);
      for (const [bytes, extension, type] of [
        [GIF, 'gif', 'image/gif'],
        [WEBP, 'webp', 'image/webp'],
        [JPEG, 'jpg', 'image/jpeg'],
        [png, 'png', 'image/png'],
      ] as const) {
        const res = await getImage(assetPathOf(bytes, extension));
        expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 200, type });
        expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
      }
    });

    it('stores a data URL repeated three times in one body once, and every image shares its path', async () => {
      const bytes = uniquePng(unique('repeated-data'));
      const before = await storedKeys();
      const created = await create({ markdown: imageMarkdown(dataUrl(bytes), dataUrl(bytes), dataUrl(bytes)) });
      const path = assetPathOf(bytes, 'png');
      expect(await storedSrcs(created.id as string)).toEqual([path, path, path]);
      expect(await storedKeys()).toEqual([...before, keyOf(path)].sort());
    });
  });

  describe('GET /static/user-images/{name}', () => {
    let bytes: Buffer;
    let path: string;

    beforeAll(async () => {
      bytes = uniquePng(unique('served'));
      path = assetPathOf(bytes, 'png');
      await create({ content: imageDoc(dataUrl(bytes)) });
    });

    it('serves the exact bytes without a key, with the content type, nosniff, a long immutable cache and a strong ETag', async () => {
      const res = await getImage(path);
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const cacheControl = res.headers['cache-control'] as string;
      expect(cacheControl).toContain('immutable');
      expect(cacheControl).toContain('public');
      expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(res.headers['etag']).toBe(`"${sha256(bytes)}"`);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('answers 304 without a body to If-None-Match with the ETag (also weak, or in a list), 200 to another one', async () => {
      const etag = `"${sha256(bytes)}"`;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
        const res = await getImage(path, { 'If-None-Match': header });
        expect({ header, status: res.status, length: (res.body as Buffer).length }).toEqual({ header, status: 304, length: 0 });
        expect(res.headers['etag']).toBe(etag);
        expect(res.headers['cache-control']).toContain('immutable');
      }
      const other = await getImage(path, { 'If-None-Match': `"${'f'.repeat(64)}"` });
      expect(other.status).toBe(200);
      expect(Buffer.compare(other.body as Buffer, bytes)).toBe(0);
    });

    it('is served with a key as well', async () => {
      const res = await getImage(path, bearer(await t.key(['content:read'])));
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    });

    it('answers unknown or malformed names with a JSON 404 not_found', async () => {
      const sha = sha256(bytes);
      const names = [
        `${'0'.repeat(64)}.png`,
        `${sha}.jpg`,
        `${sha}.gif`,
        `${sha.toUpperCase()}.png`,
        `${sha}.PNG`,
        `${sha}.svg`,
        `${sha}.png.png`,
        `${sha}`,
        `${sha.slice(1)}.png`,
        'logo.png',
        '..%2F..%2Fsecret',
        '%2e%2e',
      ];
      for (const name of names) {
        const res = await t.http.get(`/static/user-images/${name}`);
        expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 404, body: errorBody('not_found') });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    });
  });

  describe('remote images', () => {
    it('fetches a remote PNG and JPEG and stores them under their content hash', async () => {
      const created = await create({ content: imageDoc(`${images.url}/png`, `${images.url}/jpeg`) });
      const [png, jpeg] = [assetPathOf(PNG, 'png'), assetPathOf(JPEG, 'jpg')];
      expect(await storedSrcs(created.id as string)).toEqual([png, jpeg]);
      const html = (await read(created.id as string)).body.contentHtml as string;
      expect(html).toContain(`src="${STATIC_URL}${png}"`);
      expect(html).toContain(`src="${STATIC_URL}${jpeg}"`);
      expect(html).not.toContain(images.url);
      const served = await getImage(jpeg);
      expect({ status: served.status, type: served.headers['content-type'] }).toEqual({ status: 200, type: 'image/jpeg' });
      expect(Buffer.compare(served.body as Buffer, JPEG)).toBe(0);
    });

    it('fetches a URL given three times in one request once, and all three images share one path', async () => {
      const bytes = uniquePng(unique('repeated-remote'));
      const source = `/${unique('repeated')}.png`;
      const url = images.serve(source, bytes);
      const created = await create({ markdown: imageMarkdown(url, url, url) });
      const path = assetPathOf(bytes, 'png');
      expect(await storedSrcs(created.id as string)).toEqual([path, path, path]);
      expect(images.hits(source)).toBe(1);
    });

    it('stores identical bytes from different sources once, and a second article reusing them stores nothing new', async () => {
      const bytes = uniquePng(unique('twins'));
      const path = assetPathOf(bytes, 'png');
      const first = images.serve(`/${unique('twin-a')}.png`, bytes);
      const second = images.serve(`/${unique('twin-b')}`, bytes, 'application/octet-stream');
      const before = await storedKeys();
      const created = await create({ content: imageDoc(first, second, dataUrl(bytes)) });
      expect(await storedSrcs(created.id as string)).toEqual([path, path, path]);
      const after = await storedKeys();
      expect(after).toEqual([...before, keyOf(path)].sort());

      const again = await create({ markdown: imageMarkdown(dataUrl(bytes), images.serve(`/${unique('twin-c')}.png`, bytes)) });
      expect(await storedSrcs(again.id as string)).toEqual([path, path]);
      expect(await storedKeys()).toEqual(after);
    });

    it('stores data URL and remote images as objects user-images/<sha256>.<ext>, and nothing else', async () => {
      const data = uniquePng(unique('stored-data'));
      const remote = uniquePng(unique('stored-remote'));
      const url = images.serve(`/${unique('stored-remote')}.png`, remote);
      const before = await storedKeys();
      const created = await create({ content: imageDoc(dataUrl(data), url, `${images.url}/jpeg`) });
      const paths = [assetPathOf(data, 'png'), assetPathOf(remote, 'png'), assetPathOf(JPEG, 'jpg')];
      expect(await storedSrcs(created.id as string)).toEqual(paths);
      const keys = await storedKeys();
      for (const path of paths) expect(keys).toContain(keyOf(path));
      expect(keys.filter((key) => !before.includes(key)).sort()).toEqual(paths.map(keyOf).filter((key) => !before.includes(key)).sort());
      expect(keys.every((key) => /^user-images\/[0-9a-f]{64}\.(png|jpg|gif|webp|avif)$/.test(key))).toBe(true);
    });

    it('follows redirects to another image of the same server (relative 302, absolute 301)', async () => {
      const hits = images.hits('/png');
      const created = await create({ content: imageDoc(`${images.url}/redirect/png`, `${images.url}/redirect/jpeg`) });
      expect(await storedSrcs(created.id as string)).toEqual([assetPathOf(PNG, 'png'), assetPathOf(JPEG, 'jpg')]);
      expect(images.hits('/png')).toBe(hits + 1);
    });
  });

  describe('images this help center already hosts', () => {
    let bytes: Buffer;
    let path: string;

    beforeAll(async () => {
      bytes = uniquePng(unique('hosted'));
      path = assetPathOf(bytes, 'png');
      await create({ content: imageDoc(dataUrl(bytes)) });
    });

    it('keeps a hosted image given as its static URL or as its asset path, and stores nothing', async () => {
      const before = await storedKeys();
      const created = await create({ content: imageDoc(`${STATIC_URL}${path}`, path) });
      expect(await storedSrcs(created.id as string)).toEqual([path, path]);
      expect((await read(created.id as string)).body.contentHtml).toContain(`src="${STATIC_URL}${path}"`);
      const fromMarkdown = await create({ markdown: imageMarkdown(`${STATIC_URL}${path}`, path) });
      expect(await storedSrcs(fromMarkdown.id as string)).toEqual([path, path]);
      expect(await storedKeys()).toEqual(before);
    });

    it('round-trips: the contentJson and the contentMarkdown of GET can be written back unchanged', async () => {
      const remote = images.serve(`/${unique('round-trip')}.png`, uniquePng(unique('round-trip')));
      const created = await create({ content: imageDoc(dataUrl(bytes), remote), publish: true });
      const id = created.id as string;
      const json = (await read(id, 'json')).body.contentJson as Json;
      const before = await storedKeys();

      const patched = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ content: json });
      expect(outcome(patched)).toMatchObject({ status: 200 });
      const draft = await t.http.get(`/v1/articles/${id}/draft`).query({ format: 'json' }).set(bearer(admin)).expect(200);
      expect(draft.body.contentJson).toEqual(json);

      const markdown = (await read(id, 'markdown')).body.contentMarkdown as string;
      expect(markdown).toContain(`${STATIC_URL}${path}`);
      const fromMarkdown = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ markdown });
      expect(outcome(fromMarkdown)).toMatchObject({ status: 200 });
      expect(await draftSrcs(id)).toEqual(srcsOf(json));
      expect(await storedKeys()).toEqual(before);
    });

    it('refuses a well-formed hosted path or static URL that names no stored image: 400 invalid_request, nothing saved', async () => {
      const before = await snapshot();
      const sources = [
        UNKNOWN_HOSTED,
        `${STATIC_URL}${UNKNOWN_HOSTED}`,
        `${STATIC_URL}/user-images/${'1'.repeat(64)}.webp`,
        path.replace('.png', '.jpg'),
        `${STATIC_URL}${path.replace('.png', '.gif')}`,
      ];
      for (const src of sources) {
        expectInvalid(await post({ content: imageDoc(src) }));
        expectInvalid(await post({ markdown: imageMarkdown(path, src) }));
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a malformed name under the hosted prefix: 400 invalid_request', async () => {
      for (const src of ['/user-images/logo.png', `${STATIC_URL}/user-images/${sha256(bytes)}.svg`, `${path}?v=2`, '/user-images/']) {
        const res = await post({ content: imageDoc(src) });
        expect({ src, status: res.status, code: res.body.code }).toEqual({ src, status: 400, code: 'invalid_request' });
      }
    });
  });

  describe('sources that are refused before anything is fetched', () => {
    it('answers malformed base64 with 400 and the exact message, from JSON content and from Markdown', async () => {
      const before = await snapshot();
      const payloads = ['data:image/png;base64,@@@@', 'data:image/png;base64,', 'data:image/png;base64,iVBORw0KGgo', 'data:image/png;base64,iVBO Rw0K', 'data:image/png;base64,iVBO-w0K', 'data:image/png,iVBORw0K'];
      for (const src of payloads) {
        const res = await post({ content: imageDoc(src) });
        expect({ src, ...outcome(res) }).toMatchObject({ src, status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      }
      for (const src of ['data:image/png;base64,@@@@', 'data:image/png;base64,iVBORw0KGgo']) {
        const res = await post({ markdown: imageMarkdown(src) });
        expect({ src, ...outcome(res) }).toMatchObject({ src, status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses javascript:, relative, protocol-relative, non-http and non-image data sources with 400, fetching nothing', async () => {
      const before = await snapshot();
      const watched = `/${unique('not-fetched')}.png`;
      const good = images.serve(watched, uniquePng(unique('not-fetched')));
      const sources = [
        'javascript:alert(1)',
        'JaVaScRiPt:alert(1)',
        'images/logo.png',
        './logo.png',
        '/logo.png',
        '//cdn.example.com/logo.png',
        'ftp://example.com/logo.png',
        'file:///etc/passwd',
        'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      ];
      for (const src of sources) {
        const res = await post({ content: imageDoc(good, src) });
        expect({ src, status: res.status, code: res.body.code }).toEqual({ src, status: 400, code: 'invalid_request' });
      }
      for (const src of ['images/logo.png', '/logo.png']) {
        const res = await post({ markdown: imageMarkdown(good, src) });
        expect({ src, status: res.status, code: res.body.code }).toEqual({ src, status: 400, code: 'invalid_request' });
      }
      expect(images.hits(watched)).toBe(0);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('images that cannot be uploaded: 502 image_upload_failed naming the source', () => {
    const REFUSED = /refused/;
    const NOT_AN_IMAGE = /not a PNG, JPEG, GIF, WebP or AVIF image/;
    // IPv6 literals are given as JSON only: Markdown percent-encodes the brackets of the host (see the report).
    const cases: Array<{ label: string; source: (server: ImageServer) => string; reason: RegExp; markdown?: false }> = [
      { label: 'a 404', source: (s) => `${s.url}/missing`, reason: /HTTP 404/ },
      { label: 'a 500', source: (s) => `${s.url}/server-error`, reason: /HTTP 500/ },
      { label: 'HTML sent as image/png', source: (s) => `${s.url}/html-as-png`, reason: NOT_AN_IMAGE },
      { label: 'an SVG', source: (s) => `${s.url}/svg`, reason: NOT_AN_IMAGE },
      { label: 'a server that never answers', source: (s) => `${s.url}/slow`, reason: /in time/ },
      { label: 'a body that stops half-way', source: (s) => `${s.url}/slow-body`, reason: /in time/ },
      { label: 'a streamed body over IMAGE_MAX_BYTES', source: (s) => `${s.url}/oversized`, reason: new RegExp(`larger than ${MAX_BYTES} bytes`) },
      { label: 'a declared Content-Length over IMAGE_MAX_BYTES', source: (s) => `${s.url}/oversized-declared`, reason: new RegExp(`larger than ${MAX_BYTES} bytes`) },
      { label: 'a redirect to 127.0.0.2', source: (s) => `${s.url}/redirect/127.0.0.2`, reason: REFUSED },
      { label: 'a redirect to [::1]', source: (s) => `${s.url}/redirect/ipv6-loopback`, reason: REFUSED },
      { label: 'a redirect to the metadata address', source: (s) => `${s.url}/redirect/metadata`, reason: REFUSED },
      { label: 'a redirect loop', source: (s) => `${s.url}/redirect/loop`, reason: /redirects/ },
      { label: '127.0.0.2 itself', source: (s) => `http://127.0.0.2:${s.port}/png`, reason: REFUSED },
      { label: '[::1] itself', source: (s) => `http://[::1]:${s.port}/png`, reason: REFUSED, markdown: false },
      { label: 'an IPv4-mapped loopback', source: (s) => `http://[::ffff:127.0.0.1]:${s.port}/png`, reason: REFUSED, markdown: false },
      { label: '0.0.0.0', source: (s) => `http://0.0.0.0:${s.port}/png`, reason: REFUSED },
      { label: 'a private address', source: () => 'http://10.0.0.1/logo.png', reason: REFUSED },
      { label: 'the metadata address itself', source: () => 'http://169.254.169.254/latest/meta-data/', reason: REFUSED },
      { label: 'the metadata address in decimal', source: () => 'http://2852039166/latest/meta-data/', reason: REFUSED },
    ];

    it.each(cases)('$label', async ({ source, reason, markdown }) => {
      const src = source(images);
      const before = await snapshot();
      expectUploadFailed(await post({ content: imageDoc(src) }), src, reason);
      if (markdown !== false) expectUploadFailed(await post({ markdown: imageMarkdown(src) }), src, reason);
      expect(await snapshot()).toEqual(before);
    });

    it('never connects for a refused redirect target (the 127.0.0.2 and [::1] hops get no request)', async () => {
      const hits = images.hits('/png');
      expectUploadFailed(await post({ content: imageDoc(`${images.url}/redirect/127.0.0.2`, `${images.url}/redirect/ipv6-loopback`) }), '/redirect/127.0.0.2', REFUSED);
      expect(images.hits('/png')).toBe(hits);
    });

    it('fails a data URL whose bytes are not an image (HTML, SVG, text) with 502', async () => {
      for (const [bytes, label] of [
        [HTML, 'image/png'],
        [SVG, 'image/svg+xml'],
        [Buffer.from('plain text, not a picture'), 'image/gif'],
      ] as const) {
        const res = await post({ content: imageDoc(dataUrl(bytes, label)) });
        expectUploadFailed(res, `data:${label};base64,`, NOT_AN_IMAGE);
      }
    });

    it('fails a data URL larger than IMAGE_MAX_BYTES with 502', async () => {
      const big = Buffer.concat([uniquePng(unique('big')), Buffer.alloc(MAX_BYTES, 0x41)]);
      expectUploadFailed(await post({ content: imageDoc(dataUrl(big)) }), 'data:image/png;base64,', new RegExp(`larger than ${MAX_BYTES} bytes`));
    });

    it('fails the whole write when one image of several fails, naming only that one', async () => {
      const good = images.serve(`/${unique('good')}.png`, uniquePng(unique('good')));
      const bad = `${images.url}/missing?${unique('bad')}`;
      const res = await post({ content: imageDoc(good, dataUrl(uniquePng(unique('good-data'))), bad) });
      expectUploadFailed(res, bad, /HTTP 404/);
      expect(res.body.details).toHaveLength(1);
      expect(res.body.details[0]).toEqual({ field: 'content', message: expect.stringContaining(bad) });
      const fromMarkdown = await post({ markdown: imageMarkdown(good, bad) });
      expect(fromMarkdown.body.details).toEqual([{ field: 'markdown', message: expect.stringContaining(bad) }]);
    });
  });

  describe('nothing is saved when an image fails', () => {
    const failing = (): string => `${images.url}/missing?${unique('nothing-saved')}`;

    it('a failing fetch leaves no article and no stored object', async () => {
      const count = await articleCount();
      const before = await storedKeys();
      for (const src of [`${images.url}/missing`, `${images.url}/html-as-png`, `${images.url}/redirect/metadata`, `${images.url}/slow`]) {
        const res = await post({ content: imageDoc(src), publish: true });
        expect({ src, ...outcome(res) }).toMatchObject({ src, status: 502, body: { error: UPLOAD_FAILED, code: 'image_upload_failed' } });
        expect(res.body.details).toEqual([{ field: 'content', message: expect.stringContaining(src) }]);
      }
      const notAnImage = await post({ markdown: `![x](${dataUrl(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')})` });
      expect(notAnImage.status).toBe(502);
      expect(await articleCount()).toBe(count);
      expect(await storedKeys()).toEqual(before);
    });

    it('POST /v1/articles (draft and publish: true) leaves every table as it was', async () => {
      const before = await snapshot();
      expectUploadFailed(await post({ markdown: imageMarkdown(dataUrl(uniquePng(unique('kept-out'))), failing()) }), '/missing');
      expectUploadFailed(await post({ content: imageDoc(failing()), publish: true }), '/missing');
      expectUploadFailed(await post({ content: imageDoc(dataUrl(HTML)) }), 'data:image/png;base64,');
      const after = await snapshot();
      expect(after.counts).toEqual(before.counts);
      expect(after).toEqual(before);
    });

    it('PATCH of a published article opens no draft and changes nothing; If-Match with the old ETag still works', async () => {
      const bytes = uniquePng(unique('published'));
      const created = await create({ markdown: imageMarkdown(dataUrl(bytes)), publish: true });
      const id = created.id as string;
      const etag = (await read(id)).headers['etag'] as string;
      expect(etag).toEqual(expect.any(String));
      const before = await snapshot();
      const views = await outputs(id);
      expect((views as { draft: { status: number } }).draft.status).toBe(404);

      const bodies: Json[] = [
        { markdown: imageMarkdown(assetPathOf(bytes, 'png'), failing()) },
        { content: imageDoc(failing()) },
        { title: 'Renamed on failure', content: imageDoc(`${images.url}/svg`) },
        { content: imageDoc(dataUrl(uniquePng(unique('ok'))), `${images.url}/redirect/metadata`) },
      ];
      for (const body of bodies) {
        const res = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).set('If-Match', etag).send(body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 502, code: 'image_upload_failed' });
      }
      const invalid = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).set('If-Match', etag).send({ content: imageDoc('data:image/png;base64,@@') });
      expect(outcome(invalid)).toMatchObject({ status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      const after = await snapshot();
      expect(after.counts).toEqual(before.counts);
      expect(after).toEqual(before);
      expect(await outputs(id)).toEqual(views);

      const next = uniquePng(unique('after-failure'));
      const ok = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).set('If-Match', etag).send({ markdown: imageMarkdown(dataUrl(next)) });
      expect(outcome(ok)).toMatchObject({ status: 200 });
      expect(ok.body.draft_id).toEqual(expect.stringMatching(/^drf_/));
      expect(await draftSrcs(id)).toEqual([assetPathOf(next, 'png')]);
      expect(await storedSrcs(id)).toEqual([assetPathOf(bytes, 'png')]);
    });

    it('PATCH of an article with an open draft leaves the draft as it was', async () => {
      const created = await create({ markdown: 'Draft body' });
      const id = created.id as string;
      const before = await snapshot();
      const views = await outputs(id);
      expectUploadFailed(await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ markdown: imageMarkdown(failing()) }), '/missing');
      expect(await snapshot()).toEqual(before);
      expect(await outputs(id)).toEqual(views);
    });

    it('PUT /v1/articles/{id}/translations/{locale} creates no translation, and leaves an existing one as it was', async () => {
      const created = await create({ markdown: 'Source', publish: true });
      const id = created.id as string;
      const before = await snapshot();
      expectUploadFailed(await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Échec', markdown: imageMarkdown(failing()) }), '/missing');
      expectUploadFailed(await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Échec', content: imageDoc(`${images.url}/oversized`) }), '/oversized');
      expect(await snapshot()).toEqual(before);
      expect((await t.http.get(`/v1/articles/${id}/translations`).set(bearer(admin)).expect(200)).body.results).toEqual([]);

      const bytes = uniquePng(unique('translated'));
      await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Traduit', markdown: imageMarkdown(dataUrl(bytes)) }).expect(201);
      const existing = await snapshot();
      const translated = (await read(id, 'json', { locale: 'fr' })).body;
      const failed = await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Remplacé', content: imageDoc(assetPathOf(bytes, 'png'), failing()) });
      expectUploadFailed(failed, '/missing');
      expect(await snapshot()).toEqual(existing);
      expect((await read(id, 'json', { locale: 'fr' })).body).toEqual(translated);
    });
  });

  describe('the same rules on PATCH and on translation PUT', () => {
    it('PATCH with markdown uploads data URL and remote images into the draft', async () => {
      const created = await create({ markdown: 'Before', publish: true });
      const id = created.id as string;
      const data = uniquePng(unique('patch-data'));
      const remote = uniquePng(unique('patch-remote'));
      const source = `/${unique('patch-remote')}.png`;
      const url = images.serve(source, remote);
      const res = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ markdown: imageMarkdown(dataUrl(data), url, url) });
      expect(outcome(res)).toMatchObject({ status: 200 });
      expect(await draftSrcs(id)).toEqual([assetPathOf(data, 'png'), assetPathOf(remote, 'png'), assetPathOf(remote, 'png')]);
      expect(images.hits(source)).toBe(1);
      const draft = await t.http.get(`/v1/articles/${id}/draft`).query({ format: 'markdown' }).set(bearer(admin)).expect(200);
      expect(draft.body.contentMarkdown).toContain(`${STATIC_URL}${assetPathOf(data, 'png')}`);
      await t.http.post(`/v1/articles/${id}/publish`).set(bearer(admin)).expect(200);
      expect((await read(id)).body.contentHtml).toContain(`src="${STATIC_URL}${assetPathOf(remote, 'png')}"`);
    });

    it('PATCH with content uploads, keeps hosted images, and refuses what POST refuses', async () => {
      const hosted = uniquePng(unique('patch-hosted'));
      const created = await create({ content: imageDoc(dataUrl(hosted)) });
      const id = created.id as string;
      const patch = (body: Json): Promise<Response> => t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send(body);

      const ok = await patch({ content: imageDoc(`${STATIC_URL}${assetPathOf(hosted, 'png')}`, `${images.url}/jpeg`, dataUrl(GIF, 'image/gif')) });
      expect(outcome(ok)).toMatchObject({ status: 200 });
      expect(await storedSrcs(id)).toEqual([assetPathOf(hosted, 'png'), assetPathOf(JPEG, 'jpg'), assetPathOf(GIF, 'gif')]);

      const before = await snapshot();
      const views = await outputs(id);
      expect(outcome(await patch({ content: imageDoc('data:image/png;base64,!!') }))).toMatchObject({ status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      expect(outcome(await patch({ markdown: imageMarkdown('data:image/png;base64,!!') }))).toMatchObject({ status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      expectInvalid(await patch({ content: imageDoc('javascript:alert(1)') }));
      expectInvalid(await patch({ markdown: imageMarkdown('relative/logo.png') }));
      expectInvalid(await patch({ content: imageDoc(UNKNOWN_HOSTED) }));
      expectUploadFailed(await patch({ content: imageDoc(`${images.url}/html-as-png`) }), '/html-as-png');
      expectUploadFailed(await patch({ markdown: imageMarkdown(`${images.url}/redirect/ipv6-loopback`) }), '/redirect/ipv6-loopback', /refused/);
      expect(await snapshot()).toEqual(before);
      expect(await outputs(id)).toEqual(views);
    });

    it('PUT translation uploads images (Markdown and JSON) and renders them with the static URL', async () => {
      const created = await create({ markdown: 'Source', publish: true });
      const id = created.id as string;
      const bytes = uniquePng(unique('fr-data'));
      const path = assetPathOf(bytes, 'png');
      await t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Images', markdown: imageMarkdown(dataUrl(bytes)) }).expect(201);
      expect(srcsOf((await read(id, 'json', { locale: 'fr' })).body.contentJson)).toEqual([path]);
      expect((await read(id, 'html', { locale: 'fr' })).body.contentHtml).toContain(`src="${STATIC_URL}${path}"`);
      expect((await read(id, 'markdown', { locale: 'fr' })).body.contentMarkdown).toContain(`(${STATIC_URL}${path})`);

      const remote = uniquePng(unique('fr-remote'));
      const source = `/${unique('fr-remote')}.png`;
      const url = images.serve(source, remote);
      await t.http
        .put(`/v1/articles/${id}/translations/fr`)
        .set(bearer(admin))
        .send({ title: 'Images 2', content: imageDoc(url, url, `${STATIC_URL}${path}`, url) })
        .expect(200);
      const remotePath = assetPathOf(remote, 'png');
      expect(srcsOf((await read(id, 'json', { locale: 'fr' })).body.contentJson)).toEqual([remotePath, remotePath, path, remotePath]);
      expect(images.hits(source)).toBe(1);
    });

    it('PUT translation refuses what POST refuses', async () => {
      const created = await create({ markdown: 'Source', publish: true });
      const id = created.id as string;
      const put = (body: Json): Promise<Response> => t.http.put(`/v1/articles/${id}/translations/fr`).set(bearer(admin)).send({ title: 'Refusé', ...body });
      const before = await snapshot();
      expect(outcome(await put({ markdown: imageMarkdown('data:image/png;base64,abc') }))).toMatchObject({ status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      expect(outcome(await put({ content: imageDoc('data:image/png;base64,abc') }))).toMatchObject({ status: 400, body: { error: MALFORMED, code: 'invalid_request' } });
      expectInvalid(await put({ content: imageDoc('javascript:alert(1)') }));
      expectInvalid(await put({ content: imageDoc(`${STATIC_URL}${UNKNOWN_HOSTED}`) }));
      expectUploadFailed(await put({ content: imageDoc(`${images.url}/svg`) }), '/svg');
      expectUploadFailed(await put({ markdown: imageMarkdown(`${images.url}/redirect/127.0.0.2`) }), '/redirect/127.0.0.2', /refused/);
      expectUploadFailed(await put({ content: imageDoc(dataUrl(HTML)) }), 'data:image/png;base64,');
      expect(await snapshot()).toEqual(before);
    });
  });
});

describe('article images: host names that resolve to refused addresses (default network policy)', () => {
  let t: TestApp;
  let images: ImageServer;
  let admin: string;
  let sectionId: string;

  beforeAll(async () => {
    images = await startImageServer();
    t = await startTestApp({ env: { ...NO_LIMITS, IMAGE_FETCH_TIMEOUT_MS: '1000' } });
    admin = await t.key(null);
    sectionId = await defaultSectionId(t, admin);
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
  });

  it('refuses localhost and other loopback names and literals without connecting (502 naming the source)', async () => {
    const sources = [
      `http://localhost:${images.port}/png?localhost`,
      `http://LOCALHOST:${images.port}/png?upper`,
      `http://localhost.:${images.port}/png?trailing-dot`,
      `http://127.0.0.1:${images.port}/png?literal`,
      `http://127.1:${images.port}/png?short`,
      `http://0x7f000001:${images.port}/png?hex`,
    ];
    for (const src of sources) {
      const res = await t.http.post('/v1/articles').set(bearer(admin)).send({ title: 'Loopback', sectionId, content: imageDoc(src) });
      expect({ src, status: res.status, body: res.body }).toEqual({
        src,
        status: 502,
        body: { ...errorBody('image_upload_failed', UPLOAD_FAILED), details: [{ field: 'content', message: expect.stringContaining(src) }] },
      });
    }
    // `localhost.` does not resolve everywhere; every other name or literal is refused by the address policy.
    const refused = await t.http.post('/v1/articles').set(bearer(admin)).send({ title: 'Loopback', sectionId, markdown: imageMarkdown(`http://localhost:${images.port}/png?md`) });
    expect(refused.body.details[0].message).toMatch(/refused: localhost: 127\.0\.0\.1 is a loopback address/);
    for (const query of ['localhost', 'upper', 'trailing-dot', 'literal', 'short', 'hex', 'md']) expect(images.hits(`/png?${query}`)).toBe(0);
    expect((await t.http.get('/v1/articles?status=all').set(bearer(admin)).expect(200)).body.results).toEqual([]);
  });
});

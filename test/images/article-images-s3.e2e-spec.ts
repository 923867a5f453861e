import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Response } from 'supertest';
import { bearer, startTestApp, type TestApp } from '../support/app.js';
import { NO_LIMITS } from '../support/articles.js';
import { assetPathOf, binary, dataUrl, type ImageServer, JPEG, sha256, srcsOf, startImageServer, uniquePng } from '../support/image-server.js';
import { startTestS3, type TestS3 } from '../support/s3.js';
import { errorBody } from '../support/errors.js';

jest.setTimeout(60_000);

const STATIC_URL = 'http://help.test/static';

type Json = Record<string, unknown>;

function outcome(res: { status: number; body: unknown }): { status: number; body: unknown } {
  return { status: res.status, body: res.body };
}

function imageDoc(...srcs: string[]): Json {
  return { type: 'doc', content: [{ type: 'paragraph', content: srcs.map((src) => ({ type: 'image', attrs: { src, alt: 'picture', title: null } })) }] };
}

/** The bucket key of an asset path. */
function keyOf(path: string): string {
  return path.slice(1);
}

let counter = 0;
function unique(label: string): string {
  counter += 1;
  return `${label}-${counter}-${process.pid}`;
}

describe('article images (S3 storage)', () => {
  let s3: TestS3;
  let images: ImageServer;
  let t: TestApp;
  let admin: string;
  let sectionId: string;

  function post(body: Json): Promise<Response> {
    return t.http.post('/v1/articles').set(bearer(admin)).send({ title: unique('S3 images'), sectionId, ...body });
  }

  async function create(body: Json): Promise<string> {
    const res = await post(body);
    expect(outcome(res)).toMatchObject({ status: 201 });
    return res.body.id as string;
  }

  async function storedSrcs(id: string): Promise<string[]> {
    const res = await t.http.get(`/v1/articles/${id}`).query({ format: 'json' }).set(bearer(admin));
    expect(outcome(res)).toMatchObject({ status: 200 });
    return srcsOf(res.body.contentJson);
  }

  async function articleCount(): Promise<number> {
    const res = await t.http.get('/v1/articles').query({ status: 'all', page_size: 100 }).set(bearer(admin)).expect(200);
    return (res.body.results as unknown[]).length;
  }

  function getImage(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return t.http.get(`/static${path}`).set(headers).buffer(true).parse(binary);
  }

  beforeAll(async () => {
    s3 = await startTestS3();
    images = await startImageServer();
    t = await startTestApp({ env: { ...NO_LIMITS, ...s3.env, IMAGE_ALLOWED_NETWORKS: '127.0.0.1/32', IMAGE_FETCH_TIMEOUT_MS: '1000' } });
    expect(t.config.storage.driver).toBe('s3');
    admin = await t.key(null);
    const sections = (await t.http.get('/v1/sections').set(bearer(admin)).expect(200)).body.results as Array<{ id: string; isDefault: boolean }>;
    sectionId = sections.find((s) => s.isDefault)!.id;
  });
  afterAll(async () => {
    await t?.close();
    await images?.close();
    await s3?.close();
  });

  it('uploads data URL and remote images into the bucket under user-images/<sha256>.<ext>', async () => {
    const data = uniquePng(unique('s3-data'));
    const remote = uniquePng(unique('s3-remote'));
    const url = images.serve(`/${unique('s3-remote')}.png`, remote);
    const before = await s3.keys();
    const id = await create({ content: imageDoc(dataUrl(data), url, `${images.url}/jpeg`) });
    const paths = [assetPathOf(data, 'png'), assetPathOf(remote, 'png'), assetPathOf(JPEG, 'jpg')];
    expect(await storedSrcs(id)).toEqual(paths);
    const keys = await s3.keys();
    for (const path of paths) expect(keys).toContain(keyOf(path));
    expect(keys.filter((key) => !before.includes(key)).sort()).toEqual(paths.map(keyOf).filter((key) => !before.includes(key)).sort());
    expect(keys.every((key) => /^user-images\/[0-9a-f]{64}\.(png|jpg|gif|webp|avif)$/.test(key))).toBe(true);
  });

  it('stores identical bytes once, within a request and across requests', async () => {
    const bytes = uniquePng(unique('s3-twins'));
    const path = assetPathOf(bytes, 'png');
    const source = `/${unique('s3-twin')}.png`;
    const url = images.serve(source, bytes);
    const before = await s3.keys();
    const first = await create({ content: imageDoc(dataUrl(bytes), url, url) });
    expect(await storedSrcs(first)).toEqual([path, path, path]);
    expect(images.hits(source)).toBe(1);
    const after = await s3.keys();
    expect(after).toEqual([...before, keyOf(path)].sort());

    const second = await create({ markdown: `![again](${images.serve(`/${unique('s3-twin-b')}`, bytes)}) ![data](${dataUrl(bytes)})` });
    expect(await storedSrcs(second)).toEqual([path, path]);
    expect(await s3.keys()).toEqual(after);
  });

  it('serves a stored image through /static/user-images with the right headers, 304 and JSON 404s', async () => {
    const bytes = uniquePng(unique('s3-served'));
    const path = assetPathOf(bytes, 'png');
    await create({ content: imageDoc(dataUrl(bytes), `${images.url}/jpeg`) });

    const res = await getImage(path);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(Number(/max-age=(\d+)/.exec(res.headers['cache-control'] as string)?.[1])).toBeGreaterThanOrEqual(31_536_000);
    expect(res.headers['etag']).toBe(`"${sha256(bytes)}"`);

    const cached = await getImage(path, { 'If-None-Match': `"${sha256(bytes)}"` });
    expect({ status: cached.status, length: (cached.body as Buffer).length }).toEqual({ status: 304, length: 0 });

    const jpeg = await getImage(assetPathOf(JPEG, 'jpg'));
    expect({ status: jpeg.status, type: jpeg.headers['content-type'] }).toEqual({ status: 200, type: 'image/jpeg' });
    expect(Buffer.compare(jpeg.body as Buffer, JPEG)).toBe(0);

    for (const name of [`${'0'.repeat(64)}.png`, `${sha256(bytes)}.gif`, 'logo.png']) {
      const missing = await t.http.get(`/static/user-images/${name}`);
      expect({ name, status: missing.status, body: missing.body }).toEqual({ name, status: 404, body: errorBody('not_found') });
    }
  });

  it('keeps hosted images (static URL or asset path) on a JSON round trip, and refuses unknown hosted paths', async () => {
    const bytes = uniquePng(unique('s3-hosted'));
    const path = assetPathOf(bytes, 'png');
    const id = await create({ content: imageDoc(dataUrl(bytes)), publish: true });
    const before = await s3.keys();

    const reused = await create({ content: imageDoc(`${STATIC_URL}${path}`, path) });
    expect(await storedSrcs(reused)).toEqual([path, path]);

    const json = (await t.http.get(`/v1/articles/${id}`).query({ format: 'json' }).set(bearer(admin)).expect(200)).body.contentJson as Json;
    const patched = await t.http.patch(`/v1/articles/${id}`).set(bearer(admin)).send({ content: json });
    expect(outcome(patched)).toMatchObject({ status: 200 });
    const draft = await t.http.get(`/v1/articles/${id}/draft`).query({ format: 'json' }).set(bearer(admin)).expect(200);
    expect(draft.body.contentJson).toEqual(json);
    expect(await s3.keys()).toEqual(before);

    const count = await articleCount();
    for (const src of [`/user-images/${'0'.repeat(64)}.png`, `${STATIC_URL}/user-images/${'1'.repeat(64)}.webp`]) {
      const res = await post({ content: imageDoc(src) });
      expect({ src, status: res.status, code: res.body.code }).toEqual({ src, status: 400, code: 'invalid_request' });
    }
    expect(await articleCount()).toBe(count);
  });

  it('a failing fetch leaves no article and no object', async () => {
    const count = await articleCount();
    const before = await s3.keys();
    for (const src of [`${images.url}/missing`, `${images.url}/html-as-png`, `${images.url}/redirect/metadata`, `${images.url}/slow`]) {
      const res = await post({ content: imageDoc(src), publish: true });
      expect({ src, ...outcome(res) }).toMatchObject({ src, status: 502, body: { error: 'Unable to upload one or more article images', code: 'image_upload_failed' } });
      expect(res.body.details).toEqual([{ field: 'content', message: expect.stringContaining(src) }]);
    }
    const notAnImage = await post({ markdown: `![x](${dataUrl(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml')})` });
    expect(notAnImage.status).toBe(502);
    expect(await articleCount()).toBe(count);
    expect(await s3.keys()).toEqual(before);
  });
});

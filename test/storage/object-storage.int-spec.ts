import { createHash } from 'node:crypto';
import { mkdtempSync, statSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { AppConfig, LocalObjectStorage, type ObjectStorage, S3ObjectStorage } from '#core';
import { startTestS3, type TestS3 } from '../support/s3.js';

jest.setTimeout(60_000);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

let counter = 0;
/** A fresh content-addressed key, as the image service builds them. */
function newKey(extension = 'png'): { key: string; bytes: Buffer } {
  const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`image ${++counter} ${Date.now()} ${Math.random()}`)]);
  return { key: `user-images/${createHash('sha256').update(bytes).digest('hex')}.${extension}`, bytes };
}

interface Harness {
  readonly storage: ObjectStorage;
  /** Every object key stored, temporary files included. */
  keys(): Promise<string[]>;
}

/** The ObjectStorage contract, run against every adapter. */
function describeObjectStorageContract(name: string, setUp: () => Promise<Harness>, tearDown: () => Promise<void>): void {
  describe(`${name}: ObjectStorage contract`, () => {
    let harness: Harness;

    beforeAll(async () => {
      harness = await setUp();
    });

    afterAll(async () => {
      await tearDown();
    });

    it('stores a new key once, then reports it as existing and returns its bytes and content type', async () => {
      const { storage } = harness;
      const { key, bytes } = newKey();
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.get(key)).toBeNull();

      expect(await storage.putIfAbsent(key, bytes, 'image/png')).toBe('stored');
      expect(await storage.exists(key)).toBe(true);

      // Different bytes under the same key are not written: objects never change.
      expect(await storage.putIfAbsent(key, Buffer.from('other bytes'), 'image/png')).toBe('existed');

      const object = await storage.get(key);
      expect(object).not.toBeNull();
      expect(object!.contentType).toBe('image/png');
      expect(object!.size).toBe(bytes.length);
      expect(await readAll(object!.body)).toEqual(bytes);
    });

    it.each([
      ['jpg', 'image/jpeg'],
      ['gif', 'image/gif'],
      ['webp', 'image/webp'],
      ['avif', 'image/avif'],
    ])('returns the content type of a .%s object', async (extension, contentType) => {
      const { key, bytes } = newKey(extension);
      expect(await harness.storage.putIfAbsent(key, bytes, contentType)).toBe('stored');
      const object = await harness.storage.get(key);
      expect(object?.contentType).toBe(contentType);
      expect(await readAll(object!.body)).toEqual(bytes);
    });

    it('returns null and false for a key that was never stored', async () => {
      const { key } = newKey();
      expect(await harness.storage.get(key)).toBeNull();
      expect(await harness.storage.exists(key)).toBe(false);
      expect(await harness.storage.get(`nothing-here/${key}`)).toBeNull();
    });

    it('stores an empty object and a large one', async () => {
      const empty = `user-images/${'0'.repeat(64)}.gif`;
      expect(await harness.storage.putIfAbsent(empty, Buffer.alloc(0), 'image/gif')).toBe('stored');
      const emptyObject = await harness.storage.get(empty);
      expect(emptyObject?.size).toBe(0);
      expect(await readAll(emptyObject!.body)).toHaveLength(0);

      const large = Buffer.alloc(3 * 1024 * 1024 + 17, 0xab);
      const largeKey = `user-images/${createHash('sha256').update(large).digest('hex')}.webp`;
      expect(await harness.storage.putIfAbsent(largeKey, large, 'image/webp')).toBe('stored');
      const largeObject = await harness.storage.get(largeKey);
      expect(largeObject?.size).toBe(large.length);
      expect((await readAll(largeObject!.body)).equals(large)).toBe(true);
    });

    it('lets concurrent writers of the same key both succeed and leaves one complete object', async () => {
      const { key, bytes } = newKey();
      const results = await Promise.all(Array.from({ length: 8 }, () => harness.storage.putIfAbsent(key, bytes, 'image/png')));
      for (const result of results) expect(['stored', 'existed']).toContain(result);
      expect(results).toContain('stored');
      expect((await harness.keys()).filter((k) => k.startsWith(key))).toEqual([key]);
      expect(await readAll((await harness.storage.get(key))!.body)).toEqual(bytes);
      expect(await harness.storage.putIfAbsent(key, bytes, 'image/png')).toBe('existed');
    });

    it('keeps objects apart by key', async () => {
      const a = newKey();
      const b = newKey();
      await harness.storage.putIfAbsent(a.key, a.bytes, 'image/png');
      await harness.storage.putIfAbsent(b.key, b.bytes, 'image/png');
      expect(await readAll((await harness.storage.get(a.key))!.body)).toEqual(a.bytes);
      expect(await readAll((await harness.storage.get(b.key))!.body)).toEqual(b.bytes);
      expect(await harness.keys()).toEqual(expect.arrayContaining([a.key, b.key]));
    });
  });
}

/** Every file under a directory, as keys relative to it. */
function filesUnder(root: string, prefix = ''): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesUnder(root, key) : [key];
  });
}

// ---------------------------------------------------------------------------------------------------------

let localRoot: string;
describeObjectStorageContract(
  'LocalObjectStorage',
  async () => {
    localRoot = mkdtempSync(join(tmpdir(), 'hc-storage-'));
    const root = join(localRoot, 'uploads');
    const storage = new LocalObjectStorage(root);
    return { storage, keys: async () => filesUnder(root).sort() };
  },
  async () => {
    rmSync(localRoot, { recursive: true, force: true });
  },
);

let s3: TestS3;
let s3Storage: S3ObjectStorage;
describeObjectStorageContract(
  'S3ObjectStorage',
  async () => {
    s3 = await startTestS3();
    // Configured exactly as the service configures it from the environment.
    const config = AppConfig.fromEnv({ ...s3.env, DATA_DIR: join(tmpdir(), 'hc-storage-unused'), APP_SECRET: 'x'.repeat(32) });
    expect(config.storage.driver).toBe('s3');
    s3Storage = new S3ObjectStorage(config.storage.s3!);
    return { storage: s3Storage, keys: () => s3.keys() };
  },
  async () => {
    s3Storage?.onApplicationShutdown();
    await s3?.close();
  },
);

describe('S3ObjectStorage specifics', () => {
  let server: TestS3;
  let storage: S3ObjectStorage;

  beforeAll(async () => {
    server = await startTestS3('hc-specifics');
    storage = new S3ObjectStorage({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });

  afterAll(async () => {
    storage?.onApplicationShutdown();
    await server?.close();
  });

  it('stores the content type given by the caller, not one guessed from the key', async () => {
    const { key, bytes } = newKey('bin');
    await storage.putIfAbsent(key, bytes, 'image/png');
    const object = await storage.get(key);
    expect(object?.contentType).toBe('image/png');
    expect(await readAll(object!.body)).toEqual(bytes);
  });

  it('reports a bucket that does not exist as an error, not as a missing object', async () => {
    const wrong = new S3ObjectStorage({
      bucket: 'no-such-bucket',
      endpoint: server.endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    try {
      const { key, bytes } = newKey();
      await expect(wrong.putIfAbsent(key, bytes, 'image/png')).rejects.toThrow();
    } finally {
      wrong.onApplicationShutdown();
    }
  });
});

describe('LocalObjectStorage specifics', () => {
  let root: string;
  let outside: string;
  let storage: LocalObjectStorage;

  beforeAll(() => {
    outside = mkdtempSync(join(tmpdir(), 'hc-storage-'));
    root = join(outside, 'uploads');
    storage = new LocalObjectStorage(root);
  });

  afterAll(() => {
    rmSync(outside, { recursive: true, force: true });
  });

  it.each(['../escape.png', '../../etc/passwd', 'user-images/../../escape.png', '..', '/../escape.png', '../uploads-sibling/x.png'])(
    'refuses the key %j, which leaves the storage directory',
    async (key) => {
      await expect(storage.putIfAbsent(key, Buffer.from('x'), 'image/png')).rejects.toThrow(/leaves the storage directory/);
      await expect(storage.exists(key)).rejects.toThrow(/leaves the storage directory/);
      await expect(storage.get(key)).rejects.toThrow(/leaves the storage directory/);
      expect(readdirSync(outside)).toEqual(expect.not.arrayContaining(['escape.png', 'uploads-sibling']));
    },
  );

  it('keeps objects owner-only: directories 0700, files 0600 (other local users cannot read uploads)', async () => {
    const previous = process.umask(0o000);
    try {
      await storage.putIfAbsent('user-images/private.png', Buffer.from('bytes'), 'image/png');
    } finally {
      process.umask(previous);
    }
    expect(statSync(join(root, 'user-images')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'user-images', 'private.png')).mode & 0o777).toBe(0o600);
  });

  it('does not read a file next to the storage directory', async () => {
    writeFileSync(join(outside, 'secret.png'), 'secret');
    await expect(storage.get('../secret.png')).rejects.toThrow(/leaves the storage directory/);
  });

  it('refuses the storage directory itself as a key', async () => {
    await expect(storage.putIfAbsent('', Buffer.from('x'), 'image/png')).rejects.toThrow(/leaves the storage directory/);
    await expect(storage.putIfAbsent('.', Buffer.from('x'), 'image/png')).rejects.toThrow(/leaves the storage directory/);
  });

  it('treats a directory as no object', async () => {
    await mkdir(join(root, 'user-images'), { recursive: true });
    expect(await storage.exists('user-images')).toBe(false);
    expect(await storage.get('user-images')).toBeNull();
  });

  it('answers application/octet-stream for an unknown extension', async () => {
    const { key, bytes } = newKey('bin');
    await storage.putIfAbsent(key, bytes, 'image/png');
    const object = await storage.get(key);
    expect(object?.contentType).toBe('application/octet-stream');
    expect(await readAll(object!.body)).toEqual(bytes);
  });

  it('leaves no temporary files behind', () => {
    expect(filesUnder(root).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});

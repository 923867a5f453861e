import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { contentTypeOfKey, ObjectStorage, type StoredObject } from './object-storage.port.js';

/** Objects as files under one directory (`DATA_DIR/uploads`); written to a temporary file and renamed into place. */
export class LocalObjectStorage extends ObjectStorage {
  readonly driver = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  async putIfAbsent(key: string, bytes: Buffer, _contentType?: string): Promise<'stored' | 'existed'> {
    const path = this.pathOf(key);
    if (await this.exists(key)) return 'existed';
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes, { mode: 0o600 });
      // Two writers of the same key write the same bytes, so the last rename wins harmlessly.
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return 'stored';
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const path = this.pathOf(key);
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      size = info.size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { body: createReadStream(path), contentType: contentTypeOfKey(key), size };
  }

  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`Object key ${key} leaves the storage directory`);
    return path;
  }
}

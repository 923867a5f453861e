import type { Readable } from 'node:stream';

export interface StoredObject {
  readonly body: Readable;
  readonly contentType: string;
  readonly size: number;
}

/**
 * Where uploaded files live. Keys are content addressed by the callers (a hash of the bytes plus an extension),
 * so an object never changes once written and writing the same key twice is a no-op.
 */
export abstract class ObjectStorage {
  abstract readonly driver: 'local' | 's3';

  /** Stores the bytes unless the key already exists. */
  abstract putIfAbsent(key: string, bytes: Buffer, contentType: string): Promise<'stored' | 'existed'>;

  abstract exists(key: string): Promise<boolean>;

  /** The object, or null when there is none under the key. */
  abstract get(key: string): Promise<StoredObject | null>;
}

/** Immutable, content-addressed objects may be cached for a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** The Content-Type of a key by its extension; application/octet-stream for anything unknown. */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

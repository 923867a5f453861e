import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = 'help-center stored secrets v1';

export interface EncryptionKeys {
  /** The key new values are sealed with: ENCRYPTION_KEY, or one derived from APP_SECRET. */
  readonly current: string;
  /** Keys values may still be sealed with (ENCRYPTION_KEY_PREVIOUS, and APP_SECRET's once ENCRYPTION_KEY is set). */
  readonly previous: readonly string[];
}

export class SecretCipherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretCipherError';
  }
}

interface Key {
  readonly id: string;
  readonly bytes: Buffer;
}

/** A 256-bit key from key material of any length (HKDF-SHA256), and its short public identifier. */
function deriveKey(material: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', Buffer.from(material, 'utf8'), Buffer.alloc(0), INFO, 32));
  return { bytes, id: createHash('sha256').update(bytes).digest('hex').slice(0, 8) };
}

/**
 * Encrypts secrets the service must keep in the database to use later (webhook signing secrets): AES-256-GCM,
 * a random 96-bit IV per value, bound to the row it belongs to (additional data), so a value copied to another
 * row does not open. Stored as `enc:v1:<key id>:<base64url(iv | ciphertext | tag)>`; the key id says which of the
 * configured keys opens it, so keys can be rotated: new values use the current key, old ones open with a previous
 * key until they are sealed again (`isCurrent` tells which need it).
 */
export class SecretCipher {
  private readonly current: Key;
  private readonly keys: ReadonlyMap<string, Key>;

  constructor(keys: EncryptionKeys) {
    this.current = deriveKey(keys.current);
    this.keys = new Map([this.current, ...keys.previous.map(deriveKey)].map((key) => [key.id, key]));
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${this.current.id}:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The plain value. A value stored before encryption existed (no prefix) is returned as it is. */
  open(stored: string, boundTo: string): string {
    if (!stored.startsWith(PREFIX)) return stored;
    const [keyId, payload] = stored.slice(PREFIX.length).split(':');
    const key = this.keys.get(keyId ?? '');
    if (!key || !payload) {
      throw new SecretCipherError(
        `A stored secret was encrypted with key ${keyId}, which is not configured: set ENCRYPTION_KEY or ENCRYPTION_KEY_PREVIOUS to the key it was sealed with`,
      );
    }
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretCipherError('A stored secret is truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretCipherError('A stored secret does not open: altered, copied from another row, or sealed with another key');
    }
  }

  /** What every value sealed with the current key starts with (for finding the others in a query). */
  get currentPrefix(): string {
    return `${PREFIX}${this.current.id}:`;
  }

  /** Whether a stored value is sealed with the current key (else it is plain or under a previous key). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.currentPrefix);
  }
}

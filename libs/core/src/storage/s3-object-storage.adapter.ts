import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3Config } from '../config/app-config.js';
import { contentTypeOfKey, IMMUTABLE_CACHE_CONTROL, ObjectStorage, type StoredObject } from './object-storage.port.js';

/** Objects in an S3 bucket: AWS or any S3-compatible store (MinIO, R2, Ceph) through S3_ENDPOINT. */
export class S3ObjectStorage extends ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    super();
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      maxAttempts: 3,
    });
  }

  async putIfAbsent(key: string, bytes: Buffer, contentType: string): Promise<'stored' | 'existed'> {
    if (await this.exists(key)) return 'existed';
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
    return 'stored';
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return {
        body: object.Body as Readable,
        contentType: object.ContentType ?? contentTypeOfKey(key),
        size: object.ContentLength ?? 0,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  // A missing bucket is a configuration error, not a missing object.
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || (error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket');
}

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './env.js';

/** A Redis key prefix of its own for one test file, and the means to delete everything under it. */
export function createRedisNamespace(): { prefix: string; url: string; cleanup(): Promise<void> } {
  const prefix = `hct${randomBytes(4).toString('hex')}`;
  return {
    prefix,
    url: TEST_REDIS_URL,
    async cleanup() {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

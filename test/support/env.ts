/** Where the test suites find PostgreSQL and Redis (real servers; see README "Tests"). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_APP_SECRET = 'test-secret-test-secret-test-secret-0123456789';

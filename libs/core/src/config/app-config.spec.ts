import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig, loadConfig } from './app-config.js';
import { ConfigError } from './config.error.js';
import { type Env, readBool, readEnum, readInt, readIntList, readList, readString, readUrl } from './env-readers.js';

const SECRET = 'x'.repeat(32);

/** Runs `fn` and returns the ConfigError it throws (fails the test when it throws anything else or nothing). */
function configErrorOf(fn: () => unknown): ConfigError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

function expectConfigError(fn: () => unknown, variable: string): ConfigError {
  const error = configErrorOf(fn);
  expect(error.variable).toBe(variable);
  expect(error.name).toBe('ConfigError');
  // The message alone (what start-up prints) names the variable.
  expect(error.message).toContain(variable);
  return error;
}

/** A temporary root made before each test and removed after it, with `dataDir` inside it (not created). */
function useTempDataDir(): { readonly root: string; readonly dataDir: string } {
  const dirs = { root: '', dataDir: '' };
  beforeEach(() => {
    dirs.root = mkdtempSync(join(tmpdir(), 'hc-config-'));
    dirs.dataDir = join(dirs.root, 'data');
  });
  afterEach(() => {
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return dirs;
}

describe('AppConfig.fromEnv', () => {
  const temp = useTempDataDir();

  /** An environment with only the data directory pointed at the temp dir (plus the given variables). */
  const env = (vars: Env = {}): Env => ({ DATA_DIR: temp.dataDir, APP_SECRET: SECRET, ...vars });
  const load = (vars: Env = {}): AppConfig => AppConfig.fromEnv(env(vars));

  describe('defaults', () => {
    it('applies every documented default when nothing is set', () => {
      const config = load();
      expect(config.dataDir).toBe(temp.dataDir);
      expect(config.http).toEqual({
        host: '0.0.0.0',
        port: 3000,
        publicUrl: 'http://localhost:3000',
        staticUrl: 'http://localhost:3000/static',
        corsOrigins: [],
        pageCacheBytes: 32 * 1024 * 1024,
        trustProxy: false,
      });
      expect(config.database).toEqual({ url: null, poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 5_000, embeddedOsUser: 'postgres' });
      expect(config.embedded).toBe(true);
      expect(config.redis).toEqual({ url: null, prefix: 'hc' });
      expect(config.rateLimits).toEqual({ requestsPerMinute: 600, createArticlesPerHour: 60, publicFeedbackPerMinute: 10 });
      expect(config.helpdesk.languages).toEqual(['en']);
      expect(config.settings).toEqual({ sessionIdleMinutes: 120, sessionMaxHours: 12 });
      expect(config.logLevel).toBe('info');
    });

    it('treats empty and blank variables as unset', () => {
      const config = load({
        PORT: '',
        PUBLIC_URL: '   ',
        STATIC_URL: '',
        DATABASE_URL: ' ',
        REDIS_URL: '',
        REDIS_PREFIX: '',
        HELPDESK_LANGUAGES: '  ',
        LOG_LEVEL: '',
        RATE_LIMIT_REQUESTS_PER_MINUTE: '',
      });
      expect(config.http.port).toBe(3000);
      expect(config.http.publicUrl).toBe('http://localhost:3000');
      expect(config.database.url).toBeNull();
      expect(config.redis).toEqual({ url: null, prefix: 'hc' });
      expect(config.helpdesk.languages).toEqual(['en']);
      expect(config.logLevel).toBe('info');
      expect(config.rateLimits.requestsPerMinute).toBe(600);
    });

    it('derives PUBLIC_URL from PORT, and STATIC_URL from PUBLIC_URL', () => {
      const config = load({ PORT: '8080' });
      expect(config.http.port).toBe(8080);
      expect(config.http.publicUrl).toBe('http://localhost:8080');
      expect(config.http.staticUrl).toBe('http://localhost:8080/static');
    });

    it('uses the default data directory ./data resolved to an absolute path', () => {
      const config = AppConfig.fromEnv({ APP_SECRET: SECRET });
      expect(config.dataDir).toBe(join(process.cwd(), 'data'));
    });
  });

  describe('explicit values', () => {
    it('reads PORT, HOST and the rate limits', () => {
      const config = load({
        PORT: ' 4000 ',
        HOST: '127.0.0.1',
        RATE_LIMIT_REQUESTS_PER_MINUTE: '1200',
        RATE_LIMIT_CREATE_ARTICLES_PER_HOUR: '5',
        RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE: '1',
        DATABASE_POOL_SIZE: '25',
      });
      expect(config.http.port).toBe(4000);
      expect(config.http.host).toBe('127.0.0.1');
      expect(config.rateLimits).toEqual({ requestsPerMinute: 1200, createArticlesPerHour: 5, publicFeedbackPerMinute: 1 });
      expect(config.database.poolSize).toBe(25);
    });

    it('encryption keys: APP_SECRET by default; with ENCRYPTION_KEY, APP_SECRET joins the previous keys', () => {
      const secret = 'a'.repeat(40);
      expect(load({ APP_SECRET: secret }).encryption).toEqual({ current: secret, previous: [] });
      const key = 'k'.repeat(40);
      const old = 'o'.repeat(40);
      expect(load({ APP_SECRET: secret, ENCRYPTION_KEY: key, ENCRYPTION_KEY_PREVIOUS: old }).encryption).toEqual({ current: key, previous: [old, secret] });
    });

    it('reads the admin session lifetimes of the developer settings', () => {
      expect(load({ SETTINGS_SESSION_IDLE_MINUTES: '30', SETTINGS_SESSION_MAX_HOURS: '8' }).settings).toEqual({ sessionIdleMinutes: 30, sessionMaxHours: 8 });
    });

    it('reads the database timeouts and the embedded server account', () => {
      const config = load({ DATABASE_STATEMENT_TIMEOUT_MS: '1500', DATABASE_CONNECT_TIMEOUT_MS: '250', EMBEDDED_POSTGRES_USER: 'hc-db' });
      expect(config.database).toMatchObject({ statementTimeoutMs: 1500, connectTimeoutMs: 250, embeddedOsUser: 'hc-db' });
    });

    it('accepts the PORT bounds 0 and 65535', () => {
      expect(load({ PORT: '65535' }).http.port).toBe(65535);
      expect(load({ PORT: '0' }).http.port).toBe(0);
    });

    it('takes PUBLIC_URL without its trailing slash and derives STATIC_URL from it', () => {
      const config = load({ PORT: '9999', PUBLIC_URL: 'https://help.example.com/' });
      expect(config.http.publicUrl).toBe('https://help.example.com');
      expect(config.http.staticUrl).toBe('https://help.example.com/static');
    });

    it('keeps a path prefix of PUBLIC_URL', () => {
      const config = load({ PUBLIC_URL: 'https://example.com/help-center//' });
      expect(config.http.publicUrl).toBe('https://example.com/help-center');
      expect(config.http.staticUrl).toBe('https://example.com/help-center/static');
    });

    it('takes STATIC_URL as given (without trailing slash), independent of PUBLIC_URL', () => {
      const config = load({ PUBLIC_URL: 'https://example.com', STATIC_URL: 'https://cdn.example.net/assets/' });
      expect(config.http.publicUrl).toBe('https://example.com');
      expect(config.http.staticUrl).toBe('https://cdn.example.net/assets');
    });

    it('reads DATABASE_URL (postgres: and postgresql:) and leaves embedded mode', () => {
      const config = load({ DATABASE_URL: 'postgres://user:pw@db.internal:5432/help' });
      expect(config.database.url).toBe('postgres://user:pw@db.internal:5432/help');
      expect(config.embedded).toBe(false);
      expect(load({ DATABASE_URL: 'postgresql://db/help' }).database.url).toBe('postgresql://db/help');
    });

    it('reads REDIS_URL (redis: and rediss:) and REDIS_PREFIX', () => {
      expect(load({ REDIS_URL: 'redis://cache:6379/2', REDIS_PREFIX: 'hc-prod:eu_1.a' }).redis).toEqual({
        url: 'redis://cache:6379/2',
        prefix: 'hc-prod:eu_1.a',
      });
      expect(load({ REDIS_URL: 'rediss://user:pw@cache:6380' }).redis.url).toBe('rediss://user:pw@cache:6380');
    });

    it('accepts a REDIS_PREFIX of exactly 64 characters', () => {
      expect(load({ REDIS_PREFIX: 'a'.repeat(64) }).redis.prefix).toBe('a'.repeat(64));
    });

    it('splits HELPDESK_LANGUAGES on commas, trimming items and dropping empty ones; the first is the default', () => {
      expect(load({ HELPDESK_LANGUAGES: ' pt-BR , en,,fr ' }).helpdesk.languages).toEqual(['pt-BR', 'en', 'fr']);
      expect(load({ HELPDESK_LANGUAGES: 'zh-Hant-TW' }).helpdesk.languages).toEqual(['zh-Hant-TW']);
      expect(load({ HELPDESK_LANGUAGES: 'fil' }).helpdesk.languages).toEqual(['fil']);
    });

    it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL=%s', (level) => {
      expect(load({ LOG_LEVEL: level }).logLevel).toBe(level);
    });

    it('reads LOG_LEVEL case-insensitively', () => {
      expect(load({ LOG_LEVEL: 'INFO' }).logLevel).toBe('info');
      expect(load({ LOG_LEVEL: 'Debug' }).logLevel).toBe('debug');
    });

    it.each(['https://help.example.com/?a=1', 'https://help.example.com/#top'])('refuses PUBLIC_URL=%s (a base URL has no query or fragment)', (value) => {
      expectConfigError(() => load({ PUBLIC_URL: value }), 'PUBLIC_URL');
    });

    it('uses APP_SECRET when set (32 characters or more) and writes no secret file', () => {
      const config = load({ APP_SECRET: ` ${'s'.repeat(40)} ` });
      expect(config.secrets.appSecret).toBe('s'.repeat(40));
      expect(config.secrets.appSecretFromFile).toBe(false);
      expect(() => statSync(join(temp.dataDir, 'app-secret'))).toThrow();
    });

    it('accepts an APP_SECRET of exactly 32 characters', () => {
      expect(load({ APP_SECRET: 'k'.repeat(32) }).secrets.appSecret).toBe('k'.repeat(32));
    });
  });

  describe('invalid values stop start-up with a ConfigError naming the variable', () => {
    it.each(['abc', '3000.5', '-1', '65536', '70000', '1e3', '0x50', '30 00'])('PORT=%j', (value) => {
      expectConfigError(() => load({ PORT: value }), 'PORT');
    });

    it.each([
      ['PUBLIC_URL', 'not a url'],
      ['PUBLIC_URL', 'ftp://example.com'],
      ['PUBLIC_URL', 'localhost:3000'],
      ['STATIC_URL', '/static'],
      ['STATIC_URL', 'file:///var/www'],
      ['DATABASE_URL', 'mysql://user@db/help'],
      ['DATABASE_URL', 'http://db:5432/help'],
      ['DATABASE_URL', 'db.internal:5432'],
      ['DATABASE_URL', 'not a url'],
      ['REDIS_URL', 'http://cache:6379'],
      ['REDIS_URL', 'memcached://cache'],
      ['REDIS_URL', 'cache:6379'],
      ['REDIS_URL', 'garbage'],
    ])('%s=%j', (variable, value) => {
      expectConfigError(() => load({ [variable]: value }), variable);
    });

    it.each([
      ['SETTINGS_SESSION_IDLE_MINUTES', '0'],
      ['SETTINGS_SESSION_IDLE_MINUTES', '1.5'],
      ['SETTINGS_SESSION_MAX_HOURS', '0'],
      ['SETTINGS_SESSION_MAX_HOURS', '721'],
    ])('%s=%j', (variable, value) => {
      expectConfigError(() => load({ [variable]: value }), variable);
    });

    it('names the accepted schemes for a URL with the wrong scheme', () => {
      const error = expectConfigError(() => load({ DATABASE_URL: 'mysql://db/help' }), 'DATABASE_URL');
      expect(error.message).toMatch(/postgres:/);
      expect(error.message).toMatch(/mysql:/);
    });

    it.each(['short', 'x'.repeat(31)])('APP_SECRET=%j (under 32 characters)', (value) => {
      const error = expectConfigError(() => load({ APP_SECRET: value }), 'APP_SECRET');
      // The message must not echo the (partial) secret back into logs.
      expect(error.message).not.toContain(value);
    });

    it.each(['english', 'EN', 'en,FR', 'en_US', 'e', 'en-', '1', 'en,pt BR', ','])('HELPDESK_LANGUAGES=%j', (value) => {
      expectConfigError(() => load({ HELPDESK_LANGUAGES: value }), 'HELPDESK_LANGUAGES');
    });

    it.each(['has space', 'slash/prefix', 'brace{x}', 'ümlaut', 'a'.repeat(65), '*'])('REDIS_PREFIX=%j', (value) => {
      expectConfigError(() => load({ REDIS_PREFIX: value }), 'REDIS_PREFIX');
    });

    it.each(['verbose', 'warning', '3'])('LOG_LEVEL=%j', (value) => {
      const error = expectConfigError(() => load({ LOG_LEVEL: value }), 'LOG_LEVEL');
      expect(error.message).toContain('info');
    });

    it('TRUST_PROXY: off by default and for false, a hop count, or proxy addresses, ranges and names', () => {
      expect(load({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
      expect(load({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
      expect(load({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.0.2.7, ::1' }).http.trustProxy).toEqual(['loopback', '10.0.0.0/8', '192.0.2.7', '::1']);
    });

    it.each([
      ['RATE_LIMIT_REQUESTS_PER_MINUTE', '0'],
      ['RATE_LIMIT_REQUESTS_PER_MINUTE', 'many'],
      ['RATE_LIMIT_REQUESTS_PER_MINUTE', '-5'],
      ['RATE_LIMIT_CREATE_ARTICLES_PER_HOUR', '0'],
      ['RATE_LIMIT_CREATE_ARTICLES_PER_HOUR', '1.5'],
      ['RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE', '0'],
      ['RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE', 'ten'],
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', '201'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', '0'],
      ['DATABASE_STATEMENT_TIMEOUT_MS', 'forever'],
      ['DATABASE_CONNECT_TIMEOUT_MS', '-1'],
      ['TRUST_PROXY', 'true'],
      ['TRUST_PROXY', '0'],
      ['TRUST_PROXY', '11'],
      ['TRUST_PROXY', 'proxy.internal'],
      ['TRUST_PROXY', '10.0.0.0/33'],
      ['CORS_ORIGINS', 'help.example.com'],
      ['CORS_ORIGINS', 'https://help.example.com/'],
      ['CORS_ORIGINS', 'https://help.example.com/path'],
      ['CORS_ORIGINS', 'ftp://help.example.com'],
      ['ENCRYPTION_KEY', 'too-short'],
      ['ENCRYPTION_KEY_PREVIOUS', `${'k'.repeat(40)},short`],
      ['EMBEDDED_POSTGRES_USER', 'root; rm -rf /'],
      ['EMBEDDED_POSTGRES_USER', 'Postgres'],
      ['EMBEDDED_POSTGRES_USER', '-postgres'],
    ])('%s=%j', (variable, value) => {
      expectConfigError(() => load({ [variable]: value }), variable);
    });
  });

  describe('generated APP_SECRET', () => {
    const loadWithoutSecret = (vars: Env = {}): AppConfig => loadConfig({ DATA_DIR: temp.dataDir, ...vars });
    const secretFile = (): string => join(temp.dataDir, 'app-secret');

    it('parsing alone reads nothing but the environment: without APP_SECRET it names APP_SECRET and writes no file', () => {
      expectConfigError(() => AppConfig.fromEnv({ DATA_DIR: temp.dataDir }), 'APP_SECRET');
      expect(() => statSync(secretFile())).toThrow();
      expect(AppConfig.fromEnv({ DATA_DIR: temp.dataDir }, 'g'.repeat(40)).secrets).toEqual({ appSecret: 'g'.repeat(40), appSecretFromFile: true });
    });

    it('generates a secret under DATA_DIR (creating the directory) with mode 0600', () => {
      const config = loadWithoutSecret();
      expect(config.secrets.appSecretFromFile).toBe(true);
      expect(config.secrets.appSecret.length).toBeGreaterThanOrEqual(32);
      expect(config.secrets.appSecret).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(readFileSync(secretFile(), 'utf8').trim()).toBe(config.secrets.appSecret);
      expect(statSync(secretFile()).mode & 0o777).toBe(0o600);
      // A DATA_DIR the service creates is the owner's alone.
      expect(statSync(temp.dataDir).mode & 0o777).toBe(0o700);
    });

    it('reuses the stored secret on the next load', () => {
      const first = loadWithoutSecret();
      const second = loadWithoutSecret();
      expect(second.secrets.appSecret).toBe(first.secrets.appSecret);
      expect(second.secrets.appSecretFromFile).toBe(true);
      expect(statSync(secretFile()).mode & 0o777).toBe(0o600);
    });

    it('generates a different secret for a different data directory', () => {
      const first = loadWithoutSecret();
      const other = loadConfig({ DATA_DIR: join(temp.root, 'other') });
      expect(other.secrets.appSecret).not.toBe(first.secrets.appSecret);
    });

    it('reads an existing secret file written by an operator (surrounding whitespace ignored)', () => {
      loadWithoutSecret(); // creates the directory
      const operatorSecret = 'operator-provided-secret-0123456789abcdef';
      writeFileSync(secretFile(), `  ${operatorSecret}\n\n`);
      expect(loadWithoutSecret().secrets.appSecret).toBe(operatorSecret);
    });

    it('prefers APP_SECRET over the stored file', () => {
      const stored = loadWithoutSecret().secrets.appSecret;
      const config = loadWithoutSecret({ APP_SECRET: 'e'.repeat(48) });
      expect(config.secrets.appSecret).toBe('e'.repeat(48));
      expect(config.secrets.appSecretFromFile).toBe(false);
      expect(readFileSync(secretFile(), 'utf8').trim()).toBe(stored);
    });

    it('throws a ConfigError naming APP_SECRET when the data directory cannot be used', () => {
      const blocker = join(temp.root, 'not-a-directory');
      writeFileSync(blocker, 'plain file');
      expectConfigError(() => loadConfig({ DATA_DIR: join(blocker, 'data') }), 'APP_SECRET');
    });

    it('rejects a too-short stored secret with a ConfigError naming APP_SECRET and the file', () => {
      loadWithoutSecret();
      writeFileSync(secretFile(), 'too-short\n');
      const error = expectConfigError(() => loadWithoutSecret(), 'APP_SECRET');
      expect(error.message).toContain(secretFile());
      expect(error.message).not.toMatch(/call stack/i);
    });
  });
});

describe('env readers', () => {
  it('readString trims and falls back when unset or blank', () => {
    expect(readString({ A: '  v  ' }, 'A')).toBe('v');
    expect(readString({}, 'A')).toBeUndefined();
    expect(readString({ A: '  ' }, 'A', 'fallback')).toBe('fallback');
  });

  it('readInt parses integers within bounds and names the variable otherwise', () => {
    expect(readInt({ N: '-3' }, 'N', 0, { min: -5 })).toBe(-3);
    expect(readInt({}, 'N', 7)).toBe(7);
    expect(configErrorOf(() => readInt({ N: '2.0' }, 'N', 0)).variable).toBe('N');
    expect(configErrorOf(() => readInt({ N: '11' }, 'N', 0, { max: 10 })).message).toMatch(/^N: .*between 0 and 10/);
    expect(configErrorOf(() => readInt({ N: '-1' }, 'N', 0)).variable).toBe('N');
  });

  it('readBool accepts the usual spellings, case-insensitively', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'On']) expect(readBool({ B: value }, 'B', false)).toBe(true);
    for (const value of ['false', 'False', '0', 'no', 'OFF']) expect(readBool({ B: value }, 'B', true)).toBe(false);
    expect(readBool({}, 'B', true)).toBe(true);
    expect(configErrorOf(() => readBool({ B: 'maybe' }, 'B', true)).variable).toBe('B');
  });

  it('readEnum returns an allowed value or throws naming the variable', () => {
    expect(readEnum({ E: 's3' }, 'E', ['local', 's3'], 'local')).toBe('s3');
    expect(readEnum({}, 'E', ['local', 's3'], 'local')).toBe('local');
    expect(configErrorOf(() => readEnum({ E: 'gcs' }, 'E', ['local', 's3'], 'local')).message).toMatch(/^E: must be one of local, s3/);
  });

  it('readUrl checks the scheme', () => {
    expect(readUrl({ U: 'https://x.test/a' }, 'U', ['https:'])?.href).toBe('https://x.test/a');
    expect(readUrl({}, 'U', ['https:'])).toBeUndefined();
    expect(configErrorOf(() => readUrl({ U: 'http://x.test' }, 'U', ['https:'])).variable).toBe('U');
    expect(configErrorOf(() => readUrl({ U: '::' }, 'U', ['https:'])).variable).toBe('U');
  });

  it('readList and readIntList split on commas', () => {
    expect(readList({ L: 'a, b ,,c' }, 'L', [])).toEqual(['a', 'b', 'c']);
    const fallback = ['x'];
    const list = readList({}, 'L', fallback);
    expect(list).toEqual(['x']);
    expect(list).not.toBe(fallback);
    expect(readIntList({ L: '5, 300,1800' }, 'L', [])).toEqual([5, 300, 1800]);
    expect(readIntList({}, 'L', [1, 2])).toEqual([1, 2]);
    expect(configErrorOf(() => readIntList({ L: '5,-1' }, 'L', [])).variable).toBe('L');
    expect(configErrorOf(() => readIntList({ L: '5,1.5' }, 'L', [])).variable).toBe('L');
  });
});

describe('AppConfig.fromEnv: storage and image settings', () => {
  const temp = useTempDataDir();

  const load = (vars: Env = {}): AppConfig => AppConfig.fromEnv({ DATA_DIR: temp.dataDir, APP_SECRET: SECRET, ...vars });
  const s3 = (vars: Env = {}): AppConfig => load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'help-images', ...vars });

  it('defaults to local storage under DATA_DIR/uploads and the documented image limits', () => {
    const config = load();
    expect(config.storage).toEqual({ driver: 'local', localDir: join(temp.dataDir, 'uploads'), s3: null });
    expect(config.images).toEqual({
      maxBytes: 10 * 1024 * 1024,
      fetchTimeoutMs: 10_000,
      network: { allowPrivateNetworks: false, allowedNetworks: [] },
    });
  });

  it('treats blank storage and image variables as unset', () => {
    const config = load({ STORAGE_DRIVER: ' ', IMAGE_MAX_BYTES: '', IMAGE_FETCH_TIMEOUT_MS: ' ', IMAGE_ALLOW_PRIVATE_NETWORKS: '', IMAGE_ALLOWED_NETWORKS: '  ' });
    expect(config.storage.driver).toBe('local');
    expect(config.images).toEqual({ maxBytes: 10 * 1024 * 1024, fetchTimeoutMs: 10_000, network: { allowPrivateNetworks: false, allowedNetworks: [] } });
  });

  it('ignores the S3 settings with the local driver', () => {
    const config = load({ STORAGE_DRIVER: 'local', S3_BUCKET: 'help-images', S3_ACCESS_KEY_ID: 'only-the-id' });
    expect(config.storage).toEqual({ driver: 'local', localDir: join(temp.dataDir, 'uploads'), s3: null });
  });

  it('reads STORAGE_DRIVER=s3 with only a bucket: AWS endpoint, us-east-1, default credential chain', () => {
    expect(s3().storage).toEqual({
      driver: 's3',
      localDir: join(temp.dataDir, 'uploads'),
      s3: { bucket: 'help-images', endpoint: null, region: 'us-east-1', accessKeyId: null, secretAccessKey: null, forcePathStyle: false },
    });
  });

  it('reads every S3 setting', () => {
    const config = s3({
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: ' AKIDEXAMPLE ',
      S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.storage.s3).toEqual({
      bucket: 'help-images',
      endpoint: 'http://minio.internal:9000/',
      region: 'eu-central-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG',
      forcePathStyle: true,
    });
  });

  it('refuses STORAGE_DRIVER=s3 without S3_BUCKET', () => {
    const error = expectConfigError(() => load({ STORAGE_DRIVER: 's3' }), 'S3_BUCKET');
    expect(error.message).toContain('STORAGE_DRIVER=s3');
    expectConfigError(() => load({ STORAGE_DRIVER: 's3', S3_BUCKET: '   ' }), 'S3_BUCKET');
  });

  it('refuses an S3 access key id without its secret, and a secret without its key id', () => {
    const missingSecret = expectConfigError(() => s3({ S3_ACCESS_KEY_ID: 'AKIDEXAMPLE' }), 'S3_SECRET_ACCESS_KEY');
    expect(missingSecret.message).toContain('S3_ACCESS_KEY_ID');
    const missingId = expectConfigError(() => s3({ S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG' }), 'S3_ACCESS_KEY_ID');
    expect(missingId.message).toContain('S3_SECRET_ACCESS_KEY');
    // The secret itself never reaches the message.
    expect(missingId.message).not.toContain('wJalrXUtnFEMI');
  });

  it.each([
    ['STORAGE_DRIVER', 'gcs'],
    ['STORAGE_DRIVER', 'filesystem'],
    ['S3_ENDPOINT', 'minio.internal:9000'],
    ['S3_ENDPOINT', 'ftp://minio.internal'],
    ['S3_FORCE_PATH_STYLE', 'sometimes'],
  ])('refuses %s=%j', (variable, value) => {
    expectConfigError(() => s3({ [variable]: value }), variable);
  });

  it('reads the image limits', () => {
    const config = load({ IMAGE_MAX_BYTES: '1', IMAGE_FETCH_TIMEOUT_MS: '300000', IMAGE_ALLOW_PRIVATE_NETWORKS: 'yes' });
    expect(config.images.maxBytes).toBe(1);
    expect(config.images.fetchTimeoutMs).toBe(300_000);
    expect(config.images.network.allowPrivateNetworks).toBe(true);
    expect(load({ IMAGE_FETCH_TIMEOUT_MS: '1', IMAGE_ALLOW_PRIVATE_NETWORKS: 'false' }).images).toMatchObject({
      fetchTimeoutMs: 1,
      network: { allowPrivateNetworks: false },
    });
  });

  it('reads IMAGE_ALLOWED_NETWORKS as a comma-separated list of normalized CIDR ranges', () => {
    const config = load({ IMAGE_ALLOWED_NETWORKS: ' 10.0.0.0/8, 192.168.10.0/24 ,,FD00:0::/8,127.0.0.2/32' });
    expect(config.images.network.allowedNetworks).toEqual(['10.0.0.0/8', '192.168.10.0/24', 'fd00::/8', '127.0.0.2/32']);
  });

  it.each([
    ['IMAGE_MAX_BYTES', '0'],
    ['IMAGE_MAX_BYTES', '-1'],
    ['IMAGE_MAX_BYTES', '10MB'],
    ['IMAGE_MAX_BYTES', '1.5'],
    ['IMAGE_FETCH_TIMEOUT_MS', '0'],
    ['IMAGE_FETCH_TIMEOUT_MS', '300001'],
    ['IMAGE_FETCH_TIMEOUT_MS', '10s'],
    ['IMAGE_ALLOW_PRIVATE_NETWORKS', 'maybe'],
  ])('refuses %s=%j', (variable, value) => {
    expectConfigError(() => load({ [variable]: value }), variable);
  });

  it.each(['10.0.0.0', '10.0.0.0/33', 'fd00::/129', 'intranet/8', '10.0.0.0/8,not-a-range', '10.0.0.0/-1', '*', '10.0.0.0/8/8'])('refuses IMAGE_ALLOWED_NETWORKS=%j', (value) => {
    const error = expectConfigError(() => load({ IMAGE_ALLOWED_NETWORKS: value }), 'IMAGE_ALLOWED_NETWORKS');
    expect(error.message).toMatch(/is not a CIDR range/);
  });

  it('names the bad item of IMAGE_ALLOWED_NETWORKS', () => {
    const error = expectConfigError(() => load({ IMAGE_ALLOWED_NETWORKS: '10.0.0.0/8,172.16.0.0/40' }), 'IMAGE_ALLOWED_NETWORKS');
    expect(error.message).toContain('"172.16.0.0/40"');
  });
});

import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config.error.js';
import ipaddr from 'ipaddr.js';
import { type Env, readBool, readEnum, readInt, readIntList, readList, readString, readUrl } from './env-readers.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
  /** Origins the whole API answers cross-origin requests from (`*`: any); the public routes answer any origin. */
  readonly corsOrigins: readonly string[];
  readonly publicUrl: string;
  readonly staticUrl: string;
}

export interface DatabaseConfig {
  /** null in embedded mode: a PostgreSQL server owned by the service, its cluster under `dataDir/postgres`. */
  readonly url: string | null;
  readonly poolSize: number;
  /** Longest a statement may run before PostgreSQL cancels it (migrations excepted). */
  readonly statementTimeoutMs: number;
  /** Longest wait for a connection: a new one to open, or a free one from the pool. */
  readonly connectTimeoutMs: number;
  /** Embedded mode started as root: the system account the server runs as (created when missing). */
  readonly embeddedOsUser: string;
}

export interface RedisConfig {
  readonly url: string | null;
  /** Namespaces every key this deployment writes (queues, rate-limit counters). */
  readonly prefix: string;
}

export interface RateLimitConfig {
  readonly requestsPerMinute: number;
  readonly createArticlesPerHour: number;
  readonly publicFeedbackPerMinute: number;
}

export interface S3Config {
  readonly bucket: string;
  /** A custom endpoint (MinIO, R2, ...); null for AWS. */
  readonly endpoint: string | null;
  readonly region: string;
  /** Both null: the AWS SDK's default credential chain (environment, profile, instance role). */
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  readonly forcePathStyle: boolean;
}

export interface StorageConfig {
  readonly driver: 'local' | 's3';
  /** Where the local driver keeps objects: `DATA_DIR/uploads`. */
  readonly localDir: string;
  readonly s3: S3Config | null;
}

/** Which addresses outbound HTTP (image fetches, webhooks) may reach. */
export interface OutboundNetworkPolicy {
  /** Loopback, private, link-local and CGNAT addresses allowed (cloud metadata addresses never are). */
  readonly allowPrivateNetworks: boolean;
  /** CIDR ranges allowed even though they are not public, e.g. an internal image server. */
  readonly allowedNetworks: readonly string[];
}

/** The variables of the image fetches' network policy: a refused image address names them. */
export const IMAGE_NETWORK_SETTINGS = { allowPrivateNetworks: 'IMAGE_ALLOW_PRIVATE_NETWORKS', allowedNetworks: 'IMAGE_ALLOWED_NETWORKS' } as const;
/** The variables of the webhook deliveries' network policy: a refused endpoint address names them. */
export const WEBHOOK_NETWORK_SETTINGS = { allowPrivateNetworks: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', allowedNetworks: 'WEBHOOK_ALLOWED_NETWORKS' } as const;

export interface ImageConfig {
  readonly maxBytes: number;
  /** Total time for one image fetch, redirects included. */
  readonly fetchTimeoutMs: number;
  readonly network: OutboundNetworkPolicy;
}

export interface WebhookConfig {
  /** Delays before retries 1, 2, … in seconds; attempts = 1 + its length. */
  readonly retryScheduleSeconds: readonly number[];
  readonly timeoutMs: number;
  readonly disableMinFailures: number;
  readonly disableAfterSeconds: number;
  readonly allowHttp: boolean;
  readonly network: OutboundNetworkPolicy;
  /** Deliveries to one endpoint running at once per worker process. */
  readonly endpointConcurrency: number;
  /** How often the relay looks for events and deliveries a wake-up missed. */
  readonly sweepIntervalMs: number;
}

export interface AiConfig {
  readonly provider: 'builtin' | 'openai';
  /** OpenAI-compatible server: `…/v1` (its /chat/completions is called). */
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly model: string;
  /** One model request. */
  readonly requestTimeoutMs: number;
  /** Retries of a model request on 429, 5xx or a network error. */
  readonly maxRetries: number;
  readonly maxTokens: number;
  /** A whole task run; past it the task fails. */
  readonly taskTimeoutMs: number;
}

/** Keys of the secrets the service keeps encrypted in the database (webhook signing secrets). */
export interface EncryptionConfig {
  /** ENCRYPTION_KEY, or APP_SECRET when it is not set. */
  readonly current: string;
  /** ENCRYPTION_KEY_PREVIOUS, plus APP_SECRET once ENCRYPTION_KEY is set (values sealed before still open). */
  readonly previous: readonly string[];
}

export interface HelpdeskConfig {
  /** Languages of a freshly created helpdesk; the first one is its default language. */
  readonly languages: readonly string[];
}

/**
 * Every setting of the service, read once from the environment at start-up.
 * A value the service cannot use stops start-up with a ConfigError naming the variable.
 */
export class AppConfig {
  readonly dataDir: string;
  readonly http: HttpConfig;
  readonly database: DatabaseConfig;
  readonly redis: RedisConfig;
  readonly appSecret: string;
  /** True when APP_SECRET was not set and the secret was generated/read under the data directory. */
  readonly appSecretFromFile: boolean;
  readonly encryption: EncryptionConfig;
  readonly rateLimits: RateLimitConfig;
  readonly helpdesk: HelpdeskConfig;
  readonly storage: StorageConfig;
  readonly images: ImageConfig;
  readonly webhooks: WebhookConfig;
  readonly ai: AiConfig;
  readonly logLevel: LogLevel;

  private constructor(fields: Omit<AppConfig, 'embedded'>) {
    Object.assign(this, fields);
  }

  /** Embedded mode: no DATABASE_URL, so the service runs its own PostgreSQL server under DATA_DIR. */
  get embedded(): boolean {
    return this.database.url === null;
  }

  static fromEnv(env: Env = process.env): AppConfig {
    const dataDir = resolve(readString(env, 'DATA_DIR', './data'));
    const port = readInt(env, 'PORT', 3000, { min: 0, max: 65535 });
    const publicUrl = trimSlash(readBaseUrl(env, 'PUBLIC_URL')?.toString() ?? `http://localhost:${port}`);
    const staticUrl = trimSlash(readBaseUrl(env, 'STATIC_URL')?.toString() ?? `${publicUrl}/static`);
    const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
    const redisUrl = readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']);
    const redisPrefix = readString(env, 'REDIS_PREFIX', 'hc');
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) {
      throw new ConfigError('REDIS_PREFIX', 'may contain only letters, digits, "_", ".", ":" and "-" (at most 64)');
    }
    const languages = readList(env, 'HELPDESK_LANGUAGES', ['en']);
    if (languages.length === 0) throw new ConfigError('HELPDESK_LANGUAGES', 'must name at least one language');
    for (const language of languages) {
      if (!LANGUAGE_CODE.test(language)) {
        throw new ConfigError('HELPDESK_LANGUAGES', `"${language}" is not a language code such as en or pt-BR`);
      }
    }
    const secret = readString(env, 'APP_SECRET');
    if (secret !== undefined && secret.length < 32) {
      throw new ConfigError('APP_SECRET', 'must be at least 32 characters long');
    }
    const appSecret = secret ?? readOrCreateSecret(dataDir);
    return new AppConfig({
      dataDir,
      http: { host: readString(env, 'HOST', '0.0.0.0'), port, publicUrl, staticUrl, corsOrigins: readCorsOrigins(env) },
      database: {
        url: databaseUrl?.toString() ?? null,
        poolSize: readInt(env, 'DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
        statementTimeoutMs: readInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 }),
        connectTimeoutMs: readInt(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, { min: 100, max: 300_000 }),
        embeddedOsUser: readEmbeddedOsUser(env),
      },
      redis: { url: redisUrl?.toString() ?? null, prefix: redisPrefix },
      appSecret,
      appSecretFromFile: secret === undefined,
      encryption: readEncryption(env, appSecret),
      rateLimits: {
        requestsPerMinute: readInt(env, 'RATE_LIMIT_REQUESTS_PER_MINUTE', 600, { min: 1 }),
        createArticlesPerHour: readInt(env, 'RATE_LIMIT_CREATE_ARTICLES_PER_HOUR', 60, { min: 1 }),
        publicFeedbackPerMinute: readInt(env, 'RATE_LIMIT_PUBLIC_FEEDBACK_PER_MINUTE', 10, { min: 1 }),
      },
      helpdesk: { languages },
      storage: readStorage(env, dataDir),
      images: {
        maxBytes: readInt(env, 'IMAGE_MAX_BYTES', 10 * 1024 * 1024, { min: 1 }),
        fetchTimeoutMs: readInt(env, 'IMAGE_FETCH_TIMEOUT_MS', 10_000, { min: 1, max: 300_000 }),
        network: {
          allowPrivateNetworks: readBool(env, IMAGE_NETWORK_SETTINGS.allowPrivateNetworks, false),
          allowedNetworks: readCidrList(env, IMAGE_NETWORK_SETTINGS.allowedNetworks),
        },
      },
      webhooks: {
        retryScheduleSeconds: readIntList(env, 'WEBHOOK_RETRY_SCHEDULE', [5, 300, 1800, 7200, 18000, 36000, 36000]),
        timeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', 15_000, { min: 1, max: 120_000 }),
        disableMinFailures: readInt(env, 'WEBHOOK_DISABLE_MIN_FAILURES', 10, { min: 1 }),
        disableAfterSeconds: readInt(env, 'WEBHOOK_DISABLE_AFTER_SECONDS', 432_000, { min: 0 }),
        allowHttp: readBool(env, 'WEBHOOK_ALLOW_HTTP', false),
        network: {
          allowPrivateNetworks: readBool(env, WEBHOOK_NETWORK_SETTINGS.allowPrivateNetworks, false),
          allowedNetworks: readCidrList(env, WEBHOOK_NETWORK_SETTINGS.allowedNetworks),
        },
        endpointConcurrency: readInt(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 10, { min: 1, max: 1000 }),
        sweepIntervalMs: readInt(env, 'WEBHOOK_SWEEP_INTERVAL_MS', 30_000, { min: 100 }),
      },
      ai: {
        provider: readEnum(env, 'AI_PROVIDER', ['builtin', 'openai'] as const, 'builtin'),
        baseUrl: trimSlash(readBaseUrl(env, 'AI_BASE_URL')?.toString() ?? 'https://api.openai.com/v1'),
        apiKey: readString(env, 'AI_API_KEY') ?? null,
        model: readString(env, 'AI_MODEL', 'gpt-4o-mini'),
        requestTimeoutMs: readInt(env, 'AI_REQUEST_TIMEOUT_MS', 60_000, { min: 100 }),
        maxRetries: readInt(env, 'AI_MAX_RETRIES', 3, { min: 0, max: 10 }),
        maxTokens: readInt(env, 'AI_MAX_TOKENS', 4096, { min: 16 }),
        taskTimeoutMs: readInt(env, 'AI_TASK_TIMEOUT_MS', 300_000, { min: 100 }),
      },
      logLevel: readEnum({ LOG_LEVEL: env.LOG_LEVEL?.toLowerCase() }, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    });
  }
}

function readStorage(env: Env, dataDir: string): StorageConfig {
  const driver = readEnum(env, 'STORAGE_DRIVER', ['local', 's3'] as const, 'local');
  const localDir = join(dataDir, 'uploads');
  if (driver === 'local') return { driver, localDir, s3: null };
  const bucket = readString(env, 'S3_BUCKET');
  if (bucket === undefined) throw new ConfigError('S3_BUCKET', 'is required when STORAGE_DRIVER=s3');
  const accessKeyId = readString(env, 'S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = readString(env, 'S3_SECRET_ACCESS_KEY') ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError(accessKeyId === null ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together');
  }
  return {
    driver,
    localDir,
    s3: {
      bucket,
      endpoint: readUrl(env, 'S3_ENDPOINT', ['http:', 'https:'])?.toString() ?? null,
      region: readString(env, 'S3_REGION', 'us-east-1'),
      accessKeyId,
      secretAccessKey,
      forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
    },
  };
}

/** `*`, or origins such as `https://help.example.com` (scheme, host and port only). */
function readCorsOrigins(env: Env): string[] {
  const origins = readList(env, 'CORS_ORIGINS', []);
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError('CORS_ORIGINS', `"${origin}" is not an origin such as https://help.example.com (no path, no trailing slash), nor *`);
    }
  }
  return origins;
}

function readEncryption(env: Env, appSecret: string): EncryptionConfig {
  const key = readString(env, 'ENCRYPTION_KEY');
  const previous = readList(env, 'ENCRYPTION_KEY_PREVIOUS', []);
  for (const [name, value] of [['ENCRYPTION_KEY', key], ...previous.map((p) => ['ENCRYPTION_KEY_PREVIOUS', p] as const)] as const) {
    if (value !== undefined && value.length < 32) throw new ConfigError(name, 'must be at least 32 characters long (e.g. openssl rand -base64 48)');
  }
  return key === undefined ? { current: appSecret, previous } : { current: key, previous: [...previous, appSecret] };
}

function readEmbeddedOsUser(env: Env): string {
  const name = readString(env, 'EMBEDDED_POSTGRES_USER', 'postgres');
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(name)) throw new ConfigError('EMBEDDED_POSTGRES_USER', 'must be a system account name such as postgres');
  return name;
}

/** A comma-separated list of CIDR ranges such as `10.0.0.0/8,fd00::/8`. */
function readCidrList(env: Env, name: string): string[] {
  return readList(env, name, []).map((item) => {
    try {
      const [address, bits] = ipaddr.parseCIDR(item);
      return `${address.toString()}/${bits}`;
    } catch {
      throw new ConfigError(name, `"${item}" is not a CIDR range such as 10.0.0.0/8`);
    }
  });
}

/** A base URL that paths are appended to: http(s), no query or fragment. */
function readBaseUrl(env: Env, name: string): URL | undefined {
  const url = readUrl(env, name, ['http:', 'https:']);
  if (url && (url.search || url.hash)) throw new ConfigError(name, 'must be a base URL without query or fragment');
  return url;
}

/** For process entry points: the configuration, or exit 1 with a message naming the bad variable. */
export function loadConfigOrExit(env: Env = process.env): AppConfig {
  try {
    return AppConfig.fromEnv(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The generated secret lives in the data directory so restarts keep cursors valid. It is written to a temporary
 * file and linked into place, so the secret file, when it exists, is always complete; one that is not a valid
 * secret was edited by hand and is reported rather than replaced (replacing it would invalidate cursors silently).
 */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  const existing = readSecretFile(file);
  if (existing !== undefined) return existing;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(temporary, file);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  } catch (error) {
    throw new ConfigError('APP_SECRET', `not set, and ${file} cannot be written: ${(error as Error).message}`);
  }
  return readSecretFile(file) ?? '';
}

function readSecretFile(file: string): string | undefined {
  let content: string;
  try {
    content = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError('APP_SECRET', `not set, and ${file} cannot be read: ${(error as Error).message}`);
  }
  if (content.length < 32) {
    throw new ConfigError('APP_SECRET', `not set, and ${file} does not hold a secret of at least 32 characters; fix or delete the file`);
  }
  return content;
}

import { join, resolve } from 'node:path';
import { provisionAppSecret } from './app-secret-file.js';
import { ConfigError } from './config.error.js';
import ipaddr from 'ipaddr.js';
import { type Env, readBool, readEnum, readInt, readIntList, readList, readString, readUrl } from './env-readers.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export abstract class HttpConfig {
  declare readonly host: string;
  declare readonly port: number;
  /** Origins the whole API answers cross-origin requests from (`*`: any); the public routes answer any origin. */
  declare readonly corsOrigins: readonly string[];
  declare readonly publicUrl: string;
  declare readonly staticUrl: string;
  /** Bytes of rendered help center pages each API process keeps (HELP_CENTER_PAGE_CACHE_MB; 0: none kept). */
  declare readonly pageCacheBytes: number;
  /**
   * Which proxies' X-Forwarded-For is believed for the client address (TRUST_PROXY): false (the socket's address),
   * a number of proxy hops, or the proxies' addresses and ranges (`loopback`, `linklocal`, `uniquelocal` too).
   */
  declare readonly trustProxy: false | number | readonly string[];
}

export abstract class DatabaseConfig {
  /** null in embedded mode: a PostgreSQL server owned by the service, its cluster under `dataDir/postgres`. */
  declare readonly url: string | null;
  declare readonly poolSize: number;
  /** Longest a statement may run before PostgreSQL cancels it (migrations excepted). */
  declare readonly statementTimeoutMs: number;
  /** Longest wait for a connection: a new one to open, or a free one from the pool. */
  declare readonly connectTimeoutMs: number;
  /** Embedded mode started as root: the system account the server runs as (created when missing). */
  declare readonly embeddedOsUser: string;
}

export abstract class RedisConfig {
  declare readonly url: string | null;
  /** Namespaces every key this deployment writes (queues, rate-limit counters). */
  declare readonly prefix: string;
}

export abstract class RateLimitConfig {
  declare readonly requestsPerMinute: number;
  declare readonly createArticlesPerHour: number;
  declare readonly publicFeedbackPerMinute: number;
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

export abstract class StorageConfig {
  declare readonly driver: 'local' | 's3';
  /** Where the local driver keeps objects: `DATA_DIR/uploads`. */
  declare readonly localDir: string;
  declare readonly s3: S3Config | null;
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

export abstract class ImageConfig {
  declare readonly maxBytes: number;
  /** Total time for one image fetch, redirects included. */
  declare readonly fetchTimeoutMs: number;
  declare readonly network: OutboundNetworkPolicy;
}

export abstract class WebhookConfig {
  /** Delays before retries 1, 2, … in seconds; attempts = 1 + its length. */
  declare readonly retryScheduleSeconds: readonly number[];
  declare readonly timeoutMs: number;
  declare readonly disableMinFailures: number;
  declare readonly disableAfterSeconds: number;
  declare readonly allowHttp: boolean;
  declare readonly network: OutboundNetworkPolicy;
  /** Deliveries to one endpoint running at once per worker process. */
  declare readonly endpointConcurrency: number;
  /** How often the relay looks for events and deliveries a wake-up missed. */
  declare readonly sweepIntervalMs: number;
}

export abstract class AiConfig {
  declare readonly provider: 'builtin' | 'openai';
  /** OpenAI-compatible server: `…/v1` (its /chat/completions is called). */
  declare readonly baseUrl: string;
  declare readonly apiKey: string | null;
  declare readonly model: string;
  /** One model request. */
  declare readonly requestTimeoutMs: number;
  /** Retries of a model request on 429, 5xx or a network error. */
  declare readonly maxRetries: number;
  declare readonly maxTokens: number;
  /** A whole task run; past it the task fails. */
  declare readonly taskTimeoutMs: number;
}

/** Keys of the secrets the service keeps encrypted in the database (webhook signing secrets). */
export abstract class EncryptionConfig {
  /** ENCRYPTION_KEY, or APP_SECRET when it is not set. */
  declare readonly current: string;
  /** ENCRYPTION_KEY_PREVIOUS, plus APP_SECRET once ENCRYPTION_KEY is set (values sealed before still open). */
  declare readonly previous: readonly string[];
}

export abstract class HelpdeskConfig {
  /** Languages of a freshly created helpdesk; the first one is its default language. */
  declare readonly languages: readonly string[];
}

/** What every process derives its signatures from: cursors, and (without ENCRYPTION_KEY) the encryption key. */
export abstract class SecretsConfig {
  /** APP_SECRET, or the secret generated under DATA_DIR (see `app-secret-file.ts`). */
  declare readonly appSecret: string;
  /** True when APP_SECRET was not set and the secret was read from the generated file under the data directory. */
  declare readonly appSecretFromFile: boolean;
}

/** The developer settings under /settings: how long an admin's session lasts. */
export abstract class SettingsConfig {
  /** A session unused for this long ends (SETTINGS_SESSION_IDLE_MINUTES). */
  declare readonly sessionIdleMinutes: number;
  /** A session ends this long after sign-in, however much it is used (SETTINGS_SESSION_MAX_HOURS). */
  declare readonly sessionMaxHours: number;
}

/**
 * Every setting of the service, read once from the environment at start-up. Parsing is pure (it reads nothing
 * but the environment it is given); a value the service cannot use stops start-up with a ConfigError naming the
 * variable. Each concern is also injectable on its own (`HttpConfig`, `WebhookConfig`, ...: see ConfigModule), so
 * a class depends only on the settings it reads.
 */
export class AppConfig {
  readonly dataDir: string;
  readonly http: HttpConfig;
  readonly database: DatabaseConfig;
  readonly redis: RedisConfig;
  readonly secrets: SecretsConfig;
  readonly encryption: EncryptionConfig;
  readonly rateLimits: RateLimitConfig;
  readonly helpdesk: HelpdeskConfig;
  readonly storage: StorageConfig;
  readonly images: ImageConfig;
  readonly webhooks: WebhookConfig;
  readonly ai: AiConfig;
  readonly settings: SettingsConfig;
  readonly logLevel: LogLevel;

  private constructor(fields: Omit<AppConfig, 'embedded'>) {
    Object.assign(this, fields);
  }

  /** Embedded mode: no DATABASE_URL, so the service runs its own PostgreSQL server under DATA_DIR. */
  get embedded(): boolean {
    return this.database.url === null;
  }

  /** The data directory `env` names (`DATA_DIR`, default `./data`), resolved. */
  static dataDirOf(env: Env = process.env): string {
    return resolve(readString(env, 'DATA_DIR', './data'));
  }

  /**
   * @param generatedSecret the content of `DATA_DIR/app-secret`, which start-up provisions when APP_SECRET is not
   *   set (`provisionAppSecret`); without either, parsing fails naming APP_SECRET.
   */
  static fromEnv(env: Env = process.env, generatedSecret?: string): AppConfig {
    const dataDir = AppConfig.dataDirOf(env);
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
    const appSecret = secret ?? generatedSecret;
    if (appSecret === undefined) throw new ConfigError('APP_SECRET', 'is not set, and no generated secret was provisioned under DATA_DIR');
    return new AppConfig({
      dataDir,
      http: {
        host: readString(env, 'HOST', '0.0.0.0'),
        port,
        publicUrl,
        staticUrl,
        corsOrigins: readCorsOrigins(env),
        pageCacheBytes: readInt(env, 'HELP_CENTER_PAGE_CACHE_MB', 32, { min: 0, max: 16_384 }) * 1024 * 1024,
        trustProxy: readTrustProxy(env),
      },
      database: {
        url: databaseUrl?.toString() ?? null,
        poolSize: readInt(env, 'DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
        statementTimeoutMs: readInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 }),
        connectTimeoutMs: readInt(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5_000, { min: 100, max: 300_000 }),
        embeddedOsUser: readEmbeddedOsUser(env),
      },
      redis: { url: redisUrl?.toString() ?? null, prefix: redisPrefix },
      secrets: { appSecret, appSecretFromFile: secret === undefined },
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
      settings: {
        sessionIdleMinutes: readInt(env, 'SETTINGS_SESSION_IDLE_MINUTES', 120, { min: 1, max: 43_200 }),
        sessionMaxHours: readInt(env, 'SETTINGS_SESSION_MAX_HOURS', 12, { min: 1, max: 720 }),
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

const PROXY_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or `false`, a hop count (1–10), or a list of proxy addresses, CIDR ranges and the names
 * loopback, linklocal, uniquelocal. `true` (believe any X-Forwarded-For) is refused: any client could then choose its
 * own address and step around every per-address limit.
 */
function readTrustProxy(env: Env): false | number | string[] {
  const value = readString(env, 'TRUST_PROXY');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') {
    throw new ConfigError('TRUST_PROXY', 'true would let any client set its own address; give the number of proxies in front (1) or their addresses (loopback, 10.0.0.0/8)');
  }
  if (/^[0-9]+$/.test(value)) return readInt(env, 'TRUST_PROXY', 0, { min: 1, max: 10 });
  return readList(env, 'TRUST_PROXY', []).map((item) => {
    if (PROXY_NAMES.has(item)) return item;
    try {
      if (item.includes('/')) {
        const [address, bits] = ipaddr.parseCIDR(item);
        return `${address.toString()}/${bits}`;
      }
      return ipaddr.parse(item).toString();
    } catch {
      throw new ConfigError('TRUST_PROXY', `"${item}" is not a proxy address, CIDR range or one of loopback, linklocal, uniquelocal`);
    }
  });
}

/** A base URL that paths are appended to: http(s), no query or fragment. */
function readBaseUrl(env: Env, name: string): URL | undefined {
  const url = readUrl(env, name, ['http:', 'https:']);
  if (url && (url.search || url.hash)) throw new ConfigError(name, 'must be a base URL without query or fragment');
  return url;
}

/**
 * Start-up of every process: provisions the generated secret under DATA_DIR when APP_SECRET is not set, then parses
 * the environment. Throws a ConfigError naming the variable the service cannot use.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const generated = readString(env, 'APP_SECRET') === undefined ? provisionAppSecret(AppConfig.dataDirOf(env)) : undefined;
  return AppConfig.fromEnv(env, generated);
}

/** For process entry points: `loadConfig`, or exit 1 with a message naming the bad variable. */
export function loadConfigOrExit(env: Env = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    process.exit(1);
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

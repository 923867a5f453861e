import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import {
  AiConfig,
  AppConfig,
  DatabaseConfig,
  EncryptionConfig,
  HelpdeskConfig,
  HttpConfig,
  ImageConfig,
  RateLimitConfig,
  RedisConfig,
  SecretsConfig,
  SettingsConfig,
  StorageConfig,
  WebhookConfig,
} from './app-config.js';

/** The settings of one concern, by the class that is its injection token. */
const CONCERNS: ReadonlyArray<readonly [abstract new () => unknown, (config: AppConfig) => unknown]> = [
  [HttpConfig, (c) => c.http],
  [DatabaseConfig, (c) => c.database],
  [RedisConfig, (c) => c.redis],
  [SecretsConfig, (c) => c.secrets],
  [EncryptionConfig, (c) => c.encryption],
  [RateLimitConfig, (c) => c.rateLimits],
  [HelpdeskConfig, (c) => c.helpdesk],
  [StorageConfig, (c) => c.storage],
  [ImageConfig, (c) => c.images],
  [WebhookConfig, (c) => c.webhooks],
  [AiConfig, (c) => c.ai],
  [SettingsConfig, (c) => c.settings],
];

/**
 * Makes the start-up configuration injectable everywhere, one concern at a time: a class injects `WebhookConfig`
 * or `HttpConfig`, not the whole `AppConfig` (which module factories and entry points still receive).
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const providers: Provider[] = [{ provide: AppConfig, useValue: config }, ...CONCERNS.map(([token, pick]) => ({ provide: token, useValue: pick(config) }))];
    return { module: ConfigModule, providers, exports: providers.map((p) => (p as { provide: unknown }).provide as never) };
  }
}

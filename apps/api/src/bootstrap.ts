import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { type AppConfig, createLogger, exitAfterShutdownDeadline, PinoNestLogger } from '#core';
import { corsDelegate, errorEnvelope, requestIdOfResponse, requestLogging } from '#gateway';
import { ApiModule, type ApiModuleOptions } from './api.module.js';
import { userImagesPath } from './user-images/user-images.controller.js';
import { siteRoutesOutsideApiPrefix } from './help-center/site-routes.js';
import { settingsRoutesOutsideApiPrefix } from './settings/settings-routes.js';
import { setupOpenApi } from './openapi.js';

export interface ApiAppOptions extends ApiModuleOptions {
  readonly logger?: Logger;
}

/** Creates and initialises the API application (not yet listening). Shared by `main.ts` and the tests. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions): Promise<NestExpressApplication> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.forRoot(config, options), {
    bodyParser: false,
    abortOnError: false,
    logger: new PinoNestLogger(logger),
  });
  app.disable('x-powered-by');
  // request.ip (rate limits, sign-in throttling, the audit log): the socket's address unless TRUST_PROXY names the proxies in front.
  app.set('trust proxy', Array.isArray(config.http.trustProxy) ? [...config.http.trustProxy] : config.http.trustProxy);
  // Express would hash every response body for a weak ETag; resources that support conditional requests set their own.
  app.set('etag', false);
  app.use(requestLogging(logger));
  app.enableCors(corsDelegate(config.http.corsOrigins));
  // The public help center's pages are served at the root (apps/api/src/help-center), the developer settings under
  // /settings (apps/api/src/settings).
  app.setGlobalPrefix('v1', {
    exclude: ['healthz', 'readyz', `${userImagesPath(config.http.staticUrl)}/:name`, ...siteRoutesOutsideApiPrefix(), ...settingsRoutesOutsideApiPrefix()],
  });
  app.enableShutdownHooks();
  exitAfterShutdownDeadline(20_000, (message) => logger.warn(message));
  setupOpenApi(app, config);
  try {
    await app.init();
  } catch (error) {
    // A start-up that fails half-way (e.g. a secret sealed with a key this process lacks) still releases what
    // started before it: the database pool, the embedded server, the in-process queue's periodic jobs.
    await app.close().catch(() => undefined);
    throw error;
  }
  // Nest answers unknown paths under /v1 itself; everything else gets the same JSON 404.
  app.use((request: Request, response: Response) => {
    response.status(404).json(errorEnvelope({ error: 'No such route', code: 'not_found' }, requestIdOfResponse(request, response), config.http.publicUrl));
  });
  return app;
}

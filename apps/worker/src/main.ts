import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createLogger, exitAfterShutdownDeadline, loadConfigOrExit, PinoNestLogger, unsupportedNodeWarning } from '#core';
import { WorkerModule } from './worker.module.js';

/** BullMQ worker: runs every job processor against REDIS_URL; any number of these may run. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const nodeWarning = unsupportedNodeWarning();
  if (nodeWarning) logger.warn(nodeWarning);
  if (!config.redis.url) {
    logger.fatal('The worker needs REDIS_URL. Without Redis, `npm start` runs the jobs inside the API process.');
    process.exit(1);
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  // Running jobs get 20 s to finish (a webhook attempt takes at most 15 s); then the process goes regardless.
  exitAfterShutdownDeadline(20_000, (message) => logger.warn(message));
  logger.info({ redis: new URL(config.redis.url).host, embedded: config.embedded }, 'Worker started');
}

main().catch((error: unknown) => {
  process.stderr.write(`Worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

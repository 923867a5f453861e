import type { AddressInfo } from 'node:net';
import { createLogger, EMBEDDED_POSTGRES_MAJOR, loadConfigOrExit, unsupportedNodeWarning } from '#core';
import { IssueSetupTokenUseCase } from '#admin';
import { CreateInitialApiKeyUseCase } from '#gateway';
import { createApiApp } from './bootstrap.js';

/**
 * `npm start`: the API and the job processors in one process (embedded by default).
 * `npm run start:api` (`--role=api`): the API only; jobs go to Redis for `npm run start:worker`.
 */
async function main(): Promise<void> {
  const apiOnly = process.argv.includes('--role=api');
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const nodeWarning = unsupportedNodeWarning();
  if (nodeWarning) logger.warn(nodeWarning);
  if (apiOnly && !config.redis.url) {
    logger.warn('--role=api without REDIS_URL: jobs have no queue to go to, so this process runs them itself');
  }
  if (config.secrets.appSecretFromFile && !config.embedded) {
    logger.warn('APP_SECRET is not set: using the one generated under DATA_DIR. Give every API process the same APP_SECRET.');
  }
  const app = await createApiApp(config, { runsJobs: !apiOnly || !config.redis.url, logger });
  const initialKey = config.embedded ? await app.get(CreateInitialApiKeyUseCase).execute() : null;
  await app.listen(config.http.port, config.http.host);
  // Every API process, in either mode: while there is no admin and no unused setup link, one link (the advisory
  // lock in the use case makes processes starting together print it once between them).
  const setup = await app.get(IssueSetupTokenUseCase).execute();
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = config.http.port === 0 ? `http://localhost:${port}` : config.http.publicUrl;
  const lines = [
    `Help Center API listening on ${base}  (reference: ${base}/docs, OpenAPI: ${base}/v1/openapi.json)`,
    config.embedded
      ? `Embedded mode: PostgreSQL ${EMBEDDED_POSTGRES_MAJOR} under ${config.dataDir}/postgres (log: ${config.dataDir}/postgres.log), ${config.redis.url ? 'jobs on Redis' : 'jobs in this process'}, images on local disk`
      : `Database: PostgreSQL (DATABASE_URL); jobs ${config.redis.url ? 'on Redis' : 'in this process'}`,
  ];
  if (initialKey) {
    lines.push(
      '',
      'First start: created a full-access API key. It is shown only this once; store it now:',
      '',
      `  ${initialKey.plain}`,
      '',
      `Try: curl -H "Authorization: Bearer ${initialKey.plain}" ${base}/v1/sections`,
      'More keys: npm run cli -- api-keys create --name <name> --scopes content:read,content:write',
    );
  }
  if (setup) {
    lines.push(
      '',
      `First start: create the first admin at ${base}/settings/setup?token=${setup.token}`,
      `The link works once, until ${setup.expiresAt.toISOString()}. Or from a shell: npm run cli -- admins create --email <email> --name <name>`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

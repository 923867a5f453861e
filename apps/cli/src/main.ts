import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError } from 'commander';
import { loadConfig, ConfigError, createLogger, Database, DomainError, PinoNestLogger, runMigrations } from '#core';
import { type ApiKey, CreateApiKeyUseCase, ListApiKeysUseCase, RevokeApiKeyUseCase } from '#gateway';
import { CliModule } from './cli.module.js';

/** `npm run cli -- <command>`: API keys and migrations, against the same database as the service. */
async function withContext<T>(options: { migrate: boolean }, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, options), { logger: new PinoNestLogger(logger), abortOnError: false });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

function describeKey(key: ApiKey): Record<string, unknown> {
  const p = key.props;
  return {
    id: p.id,
    name: p.name,
    scopes: p.scopes,
    lastFour: p.lastFour,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    revokedAt: p.revokedAt?.toISOString() ?? null,
  };
}

function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

const program = new Command('cli').description('Help Center API administration').exitOverride();

const keys = program.command('api-keys').description('Create, list and revoke API keys');

keys
  .command('create')
  .description('Create a key; the secret is printed once')
  .requiredOption('--name <name>', 'a label for the key')
  .option('--scopes <scopes>', 'comma-separated scopes, e.g. content:read,content:write')
  .option('--legacy', 'a legacy key: null scopes, full access')
  .option('--json', 'print { id, key, scopes } as JSON and nothing else')
  .action(async (options: { name: string; scopes?: string; legacy?: boolean; json?: boolean }) => {
    if (options.legacy && options.scopes) throw new UsageError('Give either --scopes or --legacy, not both');
    if (!options.legacy && !options.scopes) throw new UsageError('Give --scopes a,b (or --legacy for a full-access key with null scopes)');
    const scopes = options.legacy ? null : options.scopes!.split(',').map((s) => s.trim()).filter(Boolean);
    const created = await withContext({ migrate: true }, (app) => app.get(CreateApiKeyUseCase).execute({ name: options.name, scopes }));
    if (options.json) {
      print(JSON.stringify({ id: created.key.id, key: created.plain, scopes: created.key.props.scopes }));
      return;
    }
    print(`Created API key ${created.key.id} (${created.key.props.name})`);
    print(`Scopes: ${created.key.props.scopes?.join(', ') ?? 'null (legacy: full access)'}`);
    print();
    print(`  ${created.plain}`);
    print();
    print('The key is shown only this once; store it now.');
  });

keys
  .command('list')
  .description('List keys (never their secrets)')
  .option('--json', 'print a JSON array')
  .action(async (options: { json?: boolean }) => {
    const list = await withContext({ migrate: true }, (app) => app.get(ListApiKeysUseCase).execute());
    if (options.json) {
      print(JSON.stringify(list.map(describeKey)));
      return;
    }
    if (list.length === 0) print('No API keys.');
    for (const key of list) {
      const p = key.props;
      const state = p.revokedAt ? `revoked ${p.revokedAt.toISOString()}` : 'active';
      print(`${p.id}  ${p.name}  hck_…${p.lastFour}  ${p.scopes?.join(',') ?? '(legacy: full access)'}  ${state}  last used ${p.lastUsedAt?.toISOString() ?? 'never'}`);
    }
  });

keys
  .command('revoke')
  .description('Revoke a key: it gets 401 at once')
  .argument('<id>', 'the key ID (key_…)')
  .option('--json', 'print the revoked key as JSON')
  .action(async (id: string, options: { json?: boolean }) => {
    const key = await withContext({ migrate: true }, (app) => app.get(RevokeApiKeyUseCase).execute(id));
    print(options.json ? JSON.stringify(describeKey(key)) : `Revoked ${key.id} (${key.props.name})`);
  });

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => {
    const applied = await withContext({ migrate: false }, (app) => runMigrations(app.get(Database).dataSource));
    print(applied.length === 0 ? 'Database is up to date.' : `Applied ${applied.length} migration(s): ${applied.join(', ')}`);
  });

class UsageError extends Error {}

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  const message = error instanceof Error ? error.message : String(error);
  const prefix = error instanceof ConfigError ? 'Invalid configuration: ' : 'Error: ';
  process.stderr.write(`${prefix}${message}\n`);
  process.exit(error instanceof UsageError || error instanceof DomainError || error instanceof ConfigError ? 2 : 1);
});

import 'reflect-metadata';
import { userInfo } from 'node:os';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError } from 'commander';
import { type AuditActor, loadConfig, ConfigError, createLogger, Database, DomainError, PinoNestLogger, runMigrations } from '#core';
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

/** Who the audit log names for changes made here: the command line and the OS user running it. */
function cliActor(): AuditActor {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? 'unknown';
  }
  return { kind: 'cli', id: null, label: `cli (${user})`, ip: null };
}

/** `--expires-at`: an ISO 8601 date, or date and time; the use case checks that it is in the future. */
function parseExpiry(value: string): Date {
  const trimmed = value.trim();
  const match = /^(\d{4})-(\d\d)-(\d\d)([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/i.exec(trimmed);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  // Date.parse rolls an impossible day over (2027-02-30 is 2 March); refuse it instead.
  const realDay = month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (!match || !realDay || Number.isNaN(Date.parse(trimmed))) {
    throw new UsageError(`--expires-at must be an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z (got ${value})`);
  }
  return new Date(trimmed);
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
    expiresAt: p.expiresAt?.toISOString() ?? null,
    createdBy: p.createdBy,
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
  .option('--expires-at <date>', 'ISO 8601 date and time after which the key gets 401, e.g. 2027-01-31T00:00:00Z')
  .option('--json', 'print { id, key, scopes } as JSON and nothing else')
  .action(async (options: { name: string; scopes?: string; legacy?: boolean; expiresAt?: string; json?: boolean }) => {
    if (options.legacy && options.scopes) throw new UsageError('Give either --scopes or --legacy, not both');
    if (!options.legacy && !options.scopes) throw new UsageError('Give --scopes a,b (or --legacy for a full-access key with null scopes)');
    const scopes = options.legacy ? null : options.scopes!.split(',').map((s) => s.trim()).filter(Boolean);
    const expiresAt = options.expiresAt === undefined ? null : parseExpiry(options.expiresAt);
    const created = await withContext({ migrate: true }, (app) => app.get(CreateApiKeyUseCase).execute({ name: options.name, scopes, expiresAt }, cliActor()));
    if (options.json) {
      print(JSON.stringify({ id: created.key.id, key: created.plain, scopes: created.key.props.scopes }));
      return;
    }
    print(`Created API key ${created.key.id} (${created.key.props.name})`);
    print(`Scopes: ${created.key.props.scopes?.join(', ') ?? 'null (legacy: full access)'}`);
    print(`Expires: ${created.key.props.expiresAt?.toISOString() ?? 'never'}`);
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
    const now = new Date();
    for (const key of list) {
      const p = key.props;
      const state = p.revokedAt
        ? `revoked ${p.revokedAt.toISOString()}`
        : p.expiresAt
          ? `${key.expiredAt(now) ? 'expired' : 'expires'} ${p.expiresAt.toISOString()}`
          : 'active';
      const columns = [p.id, p.name, `hck_…${p.lastFour}`, p.scopes?.join(',') ?? '(legacy: full access)', state];
      columns.push(`created ${p.createdAt.toISOString()} by ${p.createdBy ?? 'unknown'}`, `last used ${p.lastUsedAt?.toISOString() ?? 'never'}`);
      print(columns.join('  '));
    }
  });

keys
  .command('revoke')
  .description('Revoke a key: it gets 401 at once')
  .argument('<id>', 'the key ID (key_…)')
  .option('--json', 'print the revoked key as JSON')
  .action(async (id: string, options: { json?: boolean }) => {
    const key = await withContext({ migrate: true }, (app) => app.get(RevokeApiKeyUseCase).execute(id, cliActor()));
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

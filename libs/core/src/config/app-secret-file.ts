import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config.error.js';

/**
 * Start-up step when APP_SECRET is not set: reads `DATA_DIR/app-secret`, creating it (and DATA_DIR, 0700) first if
 * it does not exist. The generated secret lives in the data directory so restarts keep cursors valid. It is written to a temporary
 * file and linked into place, so the secret file, when it exists, is always complete; one that is not a valid
 * secret was edited by hand and is reported rather than replaced (replacing it would invalidate cursors silently).
 */
export function provisionAppSecret(dataDir: string): string {
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

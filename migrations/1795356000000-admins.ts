import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The developer settings' accounts: admins (email stored lowercase, unique; an scrypt hash that names its own
 * parameters), their server-side sessions (only the SHA-256 of the cookie value is stored), the one-time setup
 * links of a deployment without admins (SHA-256 of the token), and the sign-in throttle's counters, kept in the
 * database so that every API process agrees on them.
 */
export class Admins1795356000000 implements MigrationInterface {
  name = 'Admins1795356000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE admins (
        id             text PRIMARY KEY,
        email          text NOT NULL CONSTRAINT admins_email_key UNIQUE,
        name           text NOT NULL,
        password_hash  text NOT NULL,
        created_at     timestamptz(3) NOT NULL,
        updated_at     timestamptz(3) NOT NULL
      )`);

    await db.query(`
      CREATE TABLE admin_sessions (
        id            text PRIMARY KEY,
        admin_id      text NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
        token_hash    text NOT NULL CONSTRAINT admin_sessions_token_hash_key UNIQUE,
        csrf_token    text NOT NULL,
        ip            text,
        user_agent    text,
        created_at    timestamptz(3) NOT NULL,
        last_seen_at  timestamptz(3) NOT NULL,
        expires_at    timestamptz(3) NOT NULL
      )`);
    await db.query('CREATE INDEX admin_sessions_admin_idx ON admin_sessions (admin_id, created_at DESC)');
    await db.query('CREATE INDEX admin_sessions_expires_at_idx ON admin_sessions (expires_at)');

    await db.query(`
      CREATE TABLE admin_setup_tokens (
        token_hash  text PRIMARY KEY,
        created_at  timestamptz(3) NOT NULL,
        expires_at  timestamptz(3) NOT NULL,
        used_at     timestamptz(3),
        used_by     text REFERENCES admins (id) ON DELETE SET NULL
      )`);

    // One row per account (lowercased email, whether an admin has it or not) and per client address: the attempts
    // of the current window and, for an account, the end of its lock.
    await db.query(`
      CREATE TABLE admin_sign_in_throttle (
        scope              text NOT NULL CHECK (scope IN ('account', 'ip')),
        key                text NOT NULL,
        window_started_at  timestamptz(3) NOT NULL,
        attempts           integer NOT NULL,
        locked_until       timestamptz(3),
        PRIMARY KEY (scope, key)
      )`);
    await db.query('CREATE INDEX admin_sign_in_throttle_window_idx ON admin_sign_in_throttle (window_started_at)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE IF EXISTS admin_sign_in_throttle');
    await db.query('DROP TABLE IF EXISTS admin_setup_tokens');
    await db.query('DROP TABLE IF EXISTS admin_sessions');
    await db.query('DROP TABLE IF EXISTS admins');
  }
}

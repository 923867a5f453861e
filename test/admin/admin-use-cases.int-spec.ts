import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type AuditActor, Clock, DomainError, NotFoundError, ValidationError } from '#core';
import {
  AdminEmailTakenError,
  AdminModule,
  adminActor,
  AuthenticateSessionUseCase,
  ChangeOwnPasswordUseCase,
  CheckSetupTokenUseCase,
  CreateAdminUseCase,
  CreateFirstAdminWithSetupTokenUseCase,
  InvalidCredentialsError,
  InvalidSetupTokenError,
  IssueSetupTokenUseCase,
  LastAdminError,
  ListAdminsUseCase,
  ListAuditEntriesUseCase,
  ListOwnSessionsUseCase,
  PruneAdminSessionsUseCase,
  RemoveAdminUseCase,
  ResetAdminPasswordUseCase,
  RevokeOwnSessionUseCase,
  type SignedIn,
  SignInThrottledError,
  SignInUseCase,
  SignOutUseCase,
} from '#admin';
import { createUseCaseModule, type UseCaseModule } from '../support/use-case-module.js';

// The admin use cases below HTTP: AdminModule and its SQL adapters against a PostgreSQL database of this file's own,
// with a clock the tests move forward (sessions, setup links and the sign-in throttle all read it).

jest.setTimeout(120_000);

/** The real time plus an offset that only grows: rows written keep their order. */
class MovableClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

const MINUTE = 60_000;
const IDLE_MINUTES = 30;
const MAX_HOURS = 2;
const CLI: AuditActor = { kind: 'cli', id: null, label: 'cli (test)', ip: null };
const PASSWORD = 'violet harbour lantern 42';

describe('admin use cases (real PostgreSQL)', () => {
  let t: UseCaseModule;
  const clock = new MovableClock();
  let n = 0;
  let ipCounter = 0;

  const use = <T>(type: abstract new (...args: never[]) => T): T => t.get(type);
  const email = (word: string) => `${word}.${process.pid}.${++n}@example.com`;
  /** A client address of its own, so that a test's attempts count against no other test's per-address budget. */
  const freshIp = () => `198.51.100.${++ipCounter % 250}`;
  const origin = (ip = freshIp()) => ({ ip, userAgent: 'jest' });

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
  }

  async function createAdmin(word: string, password = PASSWORD): Promise<{ id: string; email: string }> {
    const created = await use(CreateAdminUseCase).execute({ email: email(word), name: word, password }, CLI);
    return created.admin;
  }

  function signIn(address: string, password = PASSWORD, ip = freshIp()): Promise<SignedIn> {
    return use(SignInUseCase).execute({ email: address, password, ip, userAgent: 'jest' });
  }

  async function auditRows(action: string, targetId?: string) {
    return t.rows<{ actor_kind: string; actor_id: string | null; actor_label: string | null; ip: string | null; target_id: string | null; details: Record<string, unknown> }>(
      `SELECT actor_kind, actor_id, actor_label, ip, target_id, details FROM audit_log WHERE action = $1 ${targetId ? 'AND target_id = $2' : ''} ORDER BY occurred_at, id`,
      targetId ? [action, targetId] : [action],
    );
  }

  beforeAll(async () => {
    t = await createUseCaseModule([AdminModule], {
      env: { SETTINGS_SESSION_IDLE_MINUTES: String(IDLE_MINUTES), SETTINGS_SESSION_MAX_HOURS: String(MAX_HOURS) },
      overrides: [{ provide: Clock, useValue: clock }],
    });
  });
  afterAll(() => t?.close());

  // First, while the database has no admin.
  describe('setup link', () => {
    it('is issued once: processes starting together get one token between them, stored only as its SHA-256', async () => {
      const issued = await Promise.all([1, 2, 3, 4].map(() => use(IssueSetupTokenUseCase).execute()));
      const tokens = issued.filter((i) => i !== null);
      expect(tokens).toHaveLength(1);
      const { token, expiresAt } = tokens[0]!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(expiresAt.getTime() - clock.now().getTime()).toBeGreaterThan(24 * 60 * MINUTE - MINUTE);
      expect(expiresAt.getTime() - clock.now().getTime()).toBeLessThanOrEqual(24 * 60 * MINUTE);
      const rows = await t.rows<{ token_hash: string }>('SELECT token_hash FROM admin_setup_tokens');
      expect(rows).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
      // While it is unused and valid, a new start issues none.
      expect(await use(IssueSetupTokenUseCase).execute()).toBeNull();
      expect(await use(CheckSetupTokenUseCase).execute(token)).toBe(true);
      expect(await use(CheckSetupTokenUseCase).execute(randomBytes(32).toString('base64url'))).toBe(false);
      expect(await use(CheckSetupTokenUseCase).execute('short')).toBe(false);
    });

    it('expires after 24 hours; the next start issues a new one', async () => {
      const [{ token_hash: before }] = await t.rows<{ token_hash: string }>('SELECT token_hash FROM admin_setup_tokens');
      clock.advance(24 * 60 * MINUTE + 1000);
      const fresh = await use(IssueSetupTokenUseCase).execute();
      expect(fresh).not.toBeNull();
      const all = await t.rows<{ token_hash: string }>('SELECT token_hash FROM admin_setup_tokens ORDER BY created_at');
      expect(all.map((r) => r.token_hash)).toEqual([before, createHash('sha256').update(fresh!.token).digest('hex')]);
    });

    it('an expired token creates nothing', async () => {
      const old = await use(IssueSetupTokenUseCase).execute();
      expect(old).toBeNull(); // one is valid already
      // Make one that expired: issue, then move past its end.
      await t.db.query('UPDATE admin_setup_tokens SET expires_at = $1', [new Date(clock.now().getTime() - 1000)]);
      const issued = (await use(IssueSetupTokenUseCase).execute())!;
      clock.advance(24 * 60 * MINUTE + 1000);
      expect(await use(CheckSetupTokenUseCase).execute(issued.token)).toBe(false);
      const error = await failure(
        use(CreateFirstAdminWithSetupTokenUseCase).execute({ token: issued.token, email: email('late'), name: 'Late', password: PASSWORD, ...origin() }),
      );
      expect(error).toBeInstanceOf(InvalidSetupTokenError);
      expect(await t.rows('SELECT id FROM admins')).toEqual([]);
    });

    it('validates the form: email, name and password rules, and keeps the token usable', async () => {
      const { token } = (await use(IssueSetupTokenUseCase).execute())!;
      const tries: Array<[Record<string, string>, string]> = [
        [{ email: 'not-an-email' }, 'email'],
        [{ name: '   ' }, 'name'],
        [{ password: 'short' }, 'password'],
        [{ password: 'password1234' }, 'password'],
      ];
      for (const [change, field] of tries) {
        const error = await failure(
          use(CreateFirstAdminWithSetupTokenUseCase).execute({ token, email: email('first'), name: 'First', password: PASSWORD, ...origin(), ...change }),
        );
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).details).toEqual([{ field, message: expect.any(String) }]);
      }
      expect(await use(CheckSetupTokenUseCase).execute(token)).toBe(true);
    });

    it('creates the first admin once, signs them in, marks the token used; a second form with the same token fails', async () => {
      // A fresh token for this test: expire the others.
      await t.db.query('UPDATE admin_setup_tokens SET expires_at = $1 WHERE used_at IS NULL', [new Date(clock.now().getTime() - 1000)]);
      const issued = (await use(IssueSetupTokenUseCase).execute())!;
      const address = email('First.Admin');
      const results = await Promise.allSettled(
        [1, 2].map((i) =>
          use(CreateFirstAdminWithSetupTokenUseCase).execute({ token: issued.token, email: i === 1 ? address : email('other'), name: ` First ${i} `, password: PASSWORD, ...origin('203.0.113.5') }),
        ),
      );
      const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<SignedIn>).value);
      const failed = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown);
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toBeInstanceOf(InvalidSetupTokenError);
      const signedIn = ok[0]!;
      expect(signedIn.admin.id).toMatch(/^adm_/);
      expect(signedIn.admin.email).toBe(signedIn.admin.email.toLowerCase());
      expect(signedIn.sessionId).toMatch(/^ses_/);
      const session = await use(AuthenticateSessionUseCase).execute(signedIn.cookieValue);
      expect(session?.admin.id).toBe(signedIn.admin.id);
      expect(session?.session.csrfToken).toBe(signedIn.csrfToken);

      expect(await t.rows('SELECT used_by FROM admin_setup_tokens WHERE used_at IS NOT NULL')).toEqual([{ used_by: signedIn.admin.id }]);
      expect(await use(CheckSetupTokenUseCase).execute(issued.token)).toBe(false);
      expect(await use(IssueSetupTokenUseCase).execute()).toBeNull();
      const again = await failure(
        use(CreateFirstAdminWithSetupTokenUseCase).execute({ token: issued.token, email: email('again'), name: 'Again', password: PASSWORD, ...origin() }),
      );
      expect(again).toBeInstanceOf(InvalidSetupTokenError);
      expect(await use(ListAdminsUseCase).execute()).toHaveLength(1);

      const [setup] = await auditRows('admin.setup');
      expect(setup).toMatchObject({ actor_kind: 'admin', actor_id: signedIn.admin.id, actor_label: signedIn.admin.email, ip: '203.0.113.5', target_id: signedIn.admin.id });
    });

    it('with an admin there, no setup link is issued even when none is valid', async () => {
      await t.db.query('UPDATE admin_setup_tokens SET expires_at = $1 WHERE used_at IS NULL', [new Date(clock.now().getTime() - 1000)]);
      expect(await use(IssueSetupTokenUseCase).execute()).toBeNull();
    });
  });

  describe('sign-in', () => {
    it('with the right password: a session whose cookie value and CSRF token are random, stored as a SHA-256; audited with the address', async () => {
      const admin = await createAdmin('Grace');
      const signedIn = await signIn(admin.email.toUpperCase(), PASSWORD, '192.0.2.10');
      expect(signedIn.admin).toMatchObject({ id: admin.id, email: admin.email });
      expect(signedIn.cookieValue).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(signedIn.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(signedIn.csrfToken).not.toBe(signedIn.cookieValue);
      expect(signedIn.expiresAt.getTime() - clock.now().getTime()).toBeGreaterThan(MAX_HOURS * 60 * MINUTE - MINUTE);
      const [row] = await t.rows<{ token_hash: string; ip: string; user_agent: string }>('SELECT token_hash, ip, user_agent FROM admin_sessions WHERE id = $1', [signedIn.sessionId]);
      expect(row).toEqual({ token_hash: createHash('sha256').update(signedIn.cookieValue).digest('hex'), ip: '192.0.2.10', user_agent: 'jest' });
      const [audit] = await auditRows('admin.signed_in', admin.id);
      expect(audit).toMatchObject({ actor_kind: 'admin', actor_id: admin.id, actor_label: admin.email, ip: '192.0.2.10' });
    });

    it('no enumeration: an unknown email and a wrong password fail with the same error and message', async () => {
      const admin = await createAdmin('Hopper');
      const wrong = await failure(signIn(admin.email, 'not the password at all'));
      const unknown = await failure(signIn(email('nobody'), 'not the password at all'));
      for (const error of [wrong, unknown]) {
        expect(error).toBeInstanceOf(InvalidCredentialsError);
        expect(error).toMatchObject({ code: 'unauthorized', message: 'Email or password is incorrect.' });
      }
      expect(Object.keys(wrong as object).sort()).toEqual(Object.keys(unknown as object).sort());
      const failed = await auditRows('admin.sign_in_failed');
      expect(failed.at(-2)!.details).toEqual({ email: admin.email, reason: 'bad_credentials' });
      expect(failed.at(-1)!.details).toEqual({ email: expect.stringContaining('nobody'), reason: 'bad_credentials' });
    });

    it('no enumeration by timing: an unknown email runs scrypt too', async () => {
      const admin = await createAdmin('Timing');
      const time = async (address: string) => {
        const start = process.hrtime.bigint();
        await failure(signIn(address, 'wrong password value'));
        return Number(process.hrtime.bigint() - start) / 1e6;
      };
      await time(email('warmup'));
      const known = await time(admin.email);
      const unknown = await time(email('ghost'));
      expect(unknown).toBeGreaterThan(known / 3);
    });

    it('per account: 5 failures in 15 minutes lock it for 15 minutes (the right password too), with a clear message', async () => {
      const admin = await createAdmin('Locked');
      for (let i = 0; i < 5; i++) expect(await failure(signIn(admin.email, 'wrong password value'))).toBeInstanceOf(InvalidCredentialsError);
      const locked = await failure(signIn(admin.email, PASSWORD));
      expect(locked).toBeInstanceOf(SignInThrottledError);
      expect(locked).toMatchObject({ code: 'rate_limited', message: 'Too many sign-in attempts. Try again in 15 minutes.', retryAfterMinutes: 15 });
      clock.advance(10 * MINUTE);
      expect((await failure(signIn(admin.email, PASSWORD))) as DomainError).toMatchObject({ message: 'Too many sign-in attempts. Try again in 5 minutes.' });
      clock.advance(5 * MINUTE + 1000);
      expect((await signIn(admin.email)).admin.id).toBe(admin.id);
      const throttled = (await auditRows('admin.sign_in_failed')).filter((r) => r.details.email === admin.email && r.details.reason === 'throttled');
      expect(throttled).toHaveLength(2);
    });

    it('per account, for an unknown email too: the lock does not tell whether the account exists', async () => {
      const ghost = email('ghost');
      for (let i = 0; i < 5; i++) expect(await failure(signIn(ghost, 'wrong password value'))).toBeInstanceOf(InvalidCredentialsError);
      expect(await failure(signIn(ghost, 'wrong password value'))).toBeInstanceOf(SignInThrottledError);
    });

    it('a success clears the account failures; failures older than 15 minutes no longer count', async () => {
      const admin = await createAdmin('Clear');
      for (let i = 0; i < 4; i++) await failure(signIn(admin.email, 'wrong password value'));
      await signIn(admin.email);
      for (let i = 0; i < 4; i++) await failure(signIn(admin.email, 'wrong password value'));
      clock.advance(15 * MINUTE + 1000);
      for (let i = 0; i < 4; i++) await failure(signIn(admin.email, 'wrong password value'));
      expect((await signIn(admin.email)).admin.id).toBe(admin.id);
    });

    it('parallel guesses cannot pass the account limit: 10 at once, 5 checked and 5 refused as throttled', async () => {
      const admin = await createAdmin('Parallel');
      const results = await Promise.all(Array.from({ length: 10 }, () => failure(signIn(admin.email, 'wrong password value'))));
      expect(results.filter((e) => e instanceof InvalidCredentialsError)).toHaveLength(5);
      expect(results.filter((e) => e instanceof SignInThrottledError)).toHaveLength(5);
      expect(await failure(signIn(admin.email, PASSWORD))).toBeInstanceOf(SignInThrottledError);
    });

    it('per address: 20 attempts in 15 minutes, then none until the window ends, whichever account', async () => {
      const admin = await createAdmin('Address');
      const ip = '192.0.2.200';
      for (let i = 0; i < 19; i++) await failure(signIn(email(`spray${i}`), 'wrong password value', ip));
      expect((await signIn(admin.email, PASSWORD, ip)).admin.id).toBe(admin.id); // the 20th
      const refused = await failure(signIn(admin.email, PASSWORD, ip));
      expect(refused).toBeInstanceOf(SignInThrottledError);
      expect((refused as SignInThrottledError).message).toMatch(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
      // Another address is not affected.
      expect((await signIn(admin.email, PASSWORD, '192.0.2.201')).admin.id).toBe(admin.id);
      clock.advance(15 * MINUTE + 1000);
      expect((await signIn(admin.email, PASSWORD, ip)).admin.id).toBe(admin.id);
    });

    it('rehashes a stored hash made with lower scrypt parameters at the next sign-in', async () => {
      const admin = await createAdmin('Rehash');
      const salt = randomBytes(16);
      const weak = `scrypt$1024$8$1$${salt.toString('base64')}$${scryptSync(PASSWORD, salt, 64, { N: 1024, r: 8, p: 1 }).toString('base64')}`;
      await t.db.query('UPDATE admins SET password_hash = $2 WHERE id = $1', [admin.id, weak]);
      await signIn(admin.email);
      const [{ password_hash: stored }] = await t.rows<{ password_hash: string }>('SELECT password_hash FROM admins WHERE id = $1', [admin.id]);
      expect(stored).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect((await signIn(admin.email)).admin.id).toBe(admin.id);
    });
  });

  describe('sessions', () => {
    it('idle expiry: each use keeps the session alive; unused for SETTINGS_SESSION_IDLE_MINUTES it ends', async () => {
      const admin = await createAdmin('Idle');
      const { cookieValue } = await signIn(admin.email);
      clock.advance((IDLE_MINUTES - 1) * MINUTE);
      expect(await use(AuthenticateSessionUseCase).execute(cookieValue)).not.toBeNull();
      clock.advance((IDLE_MINUTES - 1) * MINUTE);
      const alive = await use(AuthenticateSessionUseCase).execute(cookieValue);
      expect(alive?.session.idleExpiresAt.getTime()).toBe(alive!.session.lastSeenAt.getTime() + IDLE_MINUTES * MINUTE);
      clock.advance(IDLE_MINUTES * MINUTE + 1000);
      expect(await use(AuthenticateSessionUseCase).execute(cookieValue)).toBeNull();
      // And it is gone.
      expect(await use(AuthenticateSessionUseCase).execute(cookieValue)).toBeNull();
    });

    it('absolute expiry: however much it is used, a session ends SETTINGS_SESSION_MAX_HOURS after sign-in', async () => {
      const admin = await createAdmin('Absolute');
      const { cookieValue, expiresAt } = await signIn(admin.email);
      const end = expiresAt.getTime();
      while (clock.now().getTime() + 20 * MINUTE < end) {
        clock.advance(20 * MINUTE);
        const alive = await use(AuthenticateSessionUseCase).execute(cookieValue);
        expect(alive).not.toBeNull();
        expect(alive!.session.idleExpiresAt.getTime()).toBeLessThanOrEqual(end);
      }
      clock.advance(end - clock.now().getTime() + 1);
      expect(await use(AuthenticateSessionUseCase).execute(cookieValue)).toBeNull();
    });

    it('the hourly prune deletes sessions past their idle expiry and spent sign-in counters; live ones stay', async () => {
      const idle = await createAdmin('PrunedIdle');
      const active = await createAdmin('PrunedActive');
      await signIn(idle.email);
      clock.advance((IDLE_MINUTES - 10) * MINUTE);
      const { cookieValue } = await signIn(active.email);
      const ip = freshIp();
      await failure(signIn(idle.email, 'not the password at all', ip));
      const counters = async () => (await t.rows<{ n: number }>('SELECT count(*)::int AS n FROM admin_sign_in_throttle WHERE key = $1 OR key = $2', [idle.email.toLowerCase(), ip]))[0]!.n;
      expect(await counters()).toBe(2);
      // Past the idle admin's idle expiry and the counters' 15-minute window; within the active admin's.
      clock.advance(16 * MINUTE);
      await use(PruneAdminSessionsUseCase).execute();
      const sessionsOf = async (adminId: string) => (await t.rows<{ n: number }>('SELECT count(*)::int AS n FROM admin_sessions WHERE admin_id = $1', [adminId]))[0]!.n;
      expect(await sessionsOf(idle.id)).toBe(0);
      expect(await sessionsOf(active.id)).toBe(1);
      expect(await use(AuthenticateSessionUseCase).execute(cookieValue)).not.toBeNull();
      // The failed attempt's counters (account and address) are spent once their 15-minute window is over.
      expect(await counters()).toBe(0);
    });

    it('last_seen_at is written at most once a minute', async () => {
      const admin = await createAdmin('Touch');
      const { cookieValue, sessionId } = await signIn(admin.email);
      const lastSeen = async () => (await t.rows<{ last_seen_at: Date }>('SELECT last_seen_at FROM admin_sessions WHERE id = $1', [sessionId]))[0]!.last_seen_at.getTime();
      const first = await lastSeen();
      clock.advance(30_000);
      await use(AuthenticateSessionUseCase).execute(cookieValue);
      expect(await lastSeen()).toBe(first);
      clock.advance(31_000);
      await use(AuthenticateSessionUseCase).execute(cookieValue);
      expect(await lastSeen()).toBeGreaterThan(first + 60_000);
    });

    it('unknown and malformed cookie values authenticate nobody', async () => {
      for (const value of [undefined, null, '', 'x', randomBytes(32).toString('base64url'), `${'a'.repeat(42)}=`]) {
        expect(await use(AuthenticateSessionUseCase).execute(value)).toBeNull();
      }
    });

    it('sign-out ends the session at once and is audited; a second sign-out is no error', async () => {
      const admin = await createAdmin('SignOut');
      const signedIn = await signIn(admin.email);
      await use(SignOutUseCase).execute(signedIn.sessionId, adminActor(admin, '192.0.2.3'));
      expect(await use(AuthenticateSessionUseCase).execute(signedIn.cookieValue)).toBeNull();
      await use(SignOutUseCase).execute(signedIn.sessionId, adminActor(admin, '192.0.2.3'));
      expect(await auditRows('admin.signed_out', signedIn.sessionId)).toHaveLength(1);
    });

    it('an admin lists their live sessions (current marked) and revokes one; not another admin’s', async () => {
      const admin = await createAdmin('Sessions');
      const other = await createAdmin('Other');
      const laptop = await signIn(admin.email);
      const phone = await signIn(admin.email);
      const theirs = await signIn(other.email);
      const listed = await use(ListOwnSessionsUseCase).execute(admin.id, phone.sessionId);
      expect(listed.map((s) => [s.id, s.current])).toEqual([
        [phone.sessionId, true],
        [laptop.sessionId, false],
      ]);
      expect(listed[0]).toMatchObject({ userAgent: 'jest', ip: expect.any(String) });
      expect(JSON.stringify(listed)).not.toContain(phone.cookieValue);

      await use(RevokeOwnSessionUseCase).execute(admin.id, laptop.sessionId, adminActor(admin, null));
      expect(await use(AuthenticateSessionUseCase).execute(laptop.cookieValue)).toBeNull();
      expect(await use(AuthenticateSessionUseCase).execute(phone.cookieValue)).not.toBeNull();
      expect(await failure(use(RevokeOwnSessionUseCase).execute(admin.id, theirs.sessionId, adminActor(admin, null)))).toBeInstanceOf(NotFoundError);
      expect(await use(AuthenticateSessionUseCase).execute(theirs.cookieValue)).not.toBeNull();
      expect(await auditRows('admin.session_revoked', laptop.sessionId)).toHaveLength(1);
    });
  });

  describe('passwords', () => {
    it('new passwords: 12 to 256 characters, not a common password, not the email; the field says why', async () => {
      const address = email('rules');
      const cases: Array<[string, RegExp]> = [
        ['short pw', /at least 12/],
        ['x'.repeat(257), /at most 256/],
        ['password1234', /most common/],
        ['Qwertyuiop123', /most common/],
        [address, /email address/],
      ];
      for (const [password, message] of cases) {
        const error = await failure(use(CreateAdminUseCase).execute({ email: address, name: 'Rules', password }, CLI));
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).details).toEqual([{ field: 'password', message: expect.stringMatching(message) }]);
      }
      expect(await t.rows('SELECT id FROM admins WHERE email = $1', [address])).toEqual([]);
    });

    it('without a password one is generated, returned once, and works', async () => {
      const created = await use(CreateAdminUseCase).execute({ email: email('generated'), name: 'Generated', password: null }, CLI);
      expect(created.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect((await signIn(created.admin.email, created.generatedPassword!)).admin.id).toBe(created.admin.id);
      const [{ password_hash: stored }] = await t.rows<{ password_hash: string }>('SELECT password_hash FROM admins WHERE id = $1', [created.admin.id]);
      expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      expect(stored).not.toContain(created.generatedPassword);
    });

    it('an email in use, in any case, is a conflict', async () => {
      const admin = await createAdmin('Twice');
      const error = await failure(use(CreateAdminUseCase).execute({ email: admin.email.toUpperCase(), name: 'Twice', password: PASSWORD }, CLI));
      expect(error).toBeInstanceOf(AdminEmailTakenError);
    });

    it('changing one’s password checks the current one and ends every other session', async () => {
      const admin = await createAdmin('Change');
      const current = await signIn(admin.email);
      const other = await signIn(admin.email);
      const actor = adminActor(admin, '192.0.2.50');
      const change = (currentPassword: string, newPassword: string) =>
        use(ChangeOwnPasswordUseCase).execute({ adminId: admin.id, currentSessionId: current.sessionId, currentPassword, newPassword }, actor);

      const wrong = await failure(change('not my password!!', 'a brand new passphrase'));
      expect((wrong as ValidationError).details).toEqual([{ field: 'currentPassword', message: 'The current password is incorrect.' }]);
      const common = await failure(change(PASSWORD, 'password1234'));
      expect((common as ValidationError).details).toEqual([{ field: 'newPassword', message: expect.stringMatching(/most common/) }]);
      expect(await use(AuthenticateSessionUseCase).execute(other.cookieValue)).not.toBeNull();

      await change(PASSWORD, 'a brand new passphrase');
      expect(await use(AuthenticateSessionUseCase).execute(current.cookieValue)).not.toBeNull();
      expect(await use(AuthenticateSessionUseCase).execute(other.cookieValue)).toBeNull();
      expect(await failure(signIn(admin.email, PASSWORD))).toBeInstanceOf(InvalidCredentialsError);
      expect((await signIn(admin.email, 'a brand new passphrase')).admin.id).toBe(admin.id);
      const [audit] = await auditRows('admin.password_changed', admin.id);
      expect(audit).toMatchObject({ actor_kind: 'admin', actor_id: admin.id, ip: '192.0.2.50', details: { email: admin.email, sessionsEnded: 1 } });
    });

    it('a reset (command line) sets the password and ends all their sessions', async () => {
      const admin = await createAdmin('Reset');
      const session = await signIn(admin.email);
      const reset = await use(ResetAdminPasswordUseCase).execute(admin.email.toUpperCase(), null, CLI);
      expect(reset.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(await use(AuthenticateSessionUseCase).execute(session.cookieValue)).toBeNull();
      expect((await signIn(admin.email, reset.generatedPassword!)).admin.id).toBe(admin.id);
      const weak = await failure(use(ResetAdminPasswordUseCase).execute(admin.id, 'password1234', CLI));
      expect(weak).toBeInstanceOf(ValidationError);
      expect(await failure(use(ResetAdminPasswordUseCase).execute('adm_01ARZ3NDEKTSV4RRFFQ69G5FAV', PASSWORD, CLI))).toBeInstanceOf(NotFoundError);
      const [audit] = await auditRows('admin.password_reset', admin.id);
      expect(audit).toMatchObject({ actor_kind: 'cli', actor_label: 'cli (test)', details: { email: admin.email, sessionsEnded: 1 } });
    });
  });

  describe('audit log', () => {
    it('lists entries newest first, a page at a time, and never holds a password, cookie value, CSRF token or setup token', async () => {
      const admin = await createAdmin('Audited');
      const signedIn = await signIn(admin.email);
      const first = await use(ListAuditEntriesUseCase).execute({ pageSize: 2 });
      expect(first.results).toHaveLength(2);
      expect(first.results[0]).toMatchObject({ action: 'admin.signed_in', targetId: admin.id, actor: { kind: 'admin', id: admin.id, label: admin.email } });
      expect(first.has_more).toBe(true);
      const second = await use(ListAuditEntriesUseCase).execute({ pageSize: 2, startCursor: first.next_cursor! });
      expect(second.results[0]!.occurredAt.getTime()).toBeLessThanOrEqual(first.results[1]!.occurredAt.getTime());

      const text = (await t.rows<{ row: string }>('SELECT to_jsonb(a)::text AS row FROM audit_log a')).map((r) => r.row).join('\n');
      for (const secret of [PASSWORD, 'a brand new passphrase', signedIn.cookieValue, signedIn.csrfToken]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/scrypt\$/);
    });
  });

  // Last: it removes admins until two are left.
  describe('removing admins', () => {
    it("a removed admin's sessions end at once", async () => {
      const admin = await createAdmin('Removed');
      const session = await signIn(admin.email);
      expect(await use(AuthenticateSessionUseCase).execute(session.cookieValue)).not.toBeNull();
      const removed = await use(RemoveAdminUseCase).execute(admin.id, CLI);
      expect(removed.id).toBe(admin.id);
      expect(await use(AuthenticateSessionUseCase).execute(session.cookieValue)).toBeNull();
      expect(await t.rows('SELECT id FROM admin_sessions WHERE admin_id = $1', [admin.id])).toEqual([]);
      expect(await failure(signIn(admin.email))).toBeInstanceOf(InvalidCredentialsError);
      expect(await failure(use(RemoveAdminUseCase).execute(admin.email, CLI))).toBeInstanceOf(NotFoundError);
      const [audit] = await auditRows('admin.removed', admin.id);
      expect(audit).toMatchObject({ actor_kind: 'cli', details: { email: admin.email, name: 'Removed' } });
    });

    it('two removals at once of the last two admins leave one', async () => {
      const everyone = await use(ListAdminsUseCase).execute();
      for (const admin of everyone.slice(2)) await use(RemoveAdminUseCase).execute(admin.id, CLI);
      const [a, b] = await use(ListAdminsUseCase).execute();
      expect(b).toBeDefined();
      const results = await Promise.allSettled([use(RemoveAdminUseCase).execute(a!.id, adminActor(b!, null)), use(RemoveAdminUseCase).execute(b!.email, adminActor(a!, null))]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(LastAdminError);
      expect(await use(ListAdminsUseCase).execute()).toHaveLength(1);
    });

    it('the last admin cannot be removed', async () => {
      const [last] = await use(ListAdminsUseCase).execute();
      const error = await failure(use(RemoveAdminUseCase).execute(last!.id, CLI));
      expect(error).toBeInstanceOf(LastAdminError);
      expect(error).toMatchObject({ code: 'invalid_state' });
      expect(await use(ListAdminsUseCase).execute()).toHaveLength(1);
    });
  });
});

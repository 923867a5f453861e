import { Injectable } from '@nestjs/common';
import { type AuditActor, AuditLog, Clock } from '#core';
import { type Admin, InvalidCredentialsError, SignInThrottledError } from '../domain/admin.js';
import { ACCOUNT_LOCK_MS, ACCOUNT_MAX_FAILURES, ACCOUNT_WINDOW_MS, IP_MAX_ATTEMPTS, IP_WINDOW_MS } from '../domain/sign-in-throttle.js';
import { AdminRepository } from './admin.repository.js';
import { adminActor, type RequestOrigin, type SignedIn } from './admin-views.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionStarter } from './session-starter.js';
import { SignInThrottleRepository } from './sign-in-throttle.repository.js';

export interface SignInCommand extends RequestOrigin {
  readonly email: string;
  readonly password: string;
}

/** Longer than any address or password the forms accept: refused without hashing (it counts as an attempt). */
const MAX_EMAIL_INPUT = 320;
const MAX_PASSWORD_INPUT = 1024;

/**
 * Email and password → a new session. The answer never says whether the email belongs to an admin: an unknown
 * email fails with the same error as a wrong password, after the same scrypt work (against a dummy hash), and
 * counts against the same per-account throttle. Attempts are counted before the password is checked, so parallel
 * guesses cannot slip past the limits.
 */
@Injectable()
export class SignInUseCase {
  constructor(
    private readonly admins: AdminRepository,
    private readonly throttle: SignInThrottleRepository,
    private readonly hasher: PasswordHasher,
    private readonly starter: SessionStarter,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Throws InvalidCredentialsError or SignInThrottledError. */
  async execute(command: SignInCommand): Promise<SignedIn> {
    const email = command.email.trim().toLowerCase().slice(0, MAX_EMAIL_INPUT);
    const ipKey = command.ip ?? 'unknown';
    const now = this.clock.now();

    const ip = await this.throttle.addAttempt('ip', ipKey, now, IP_WINDOW_MS);
    if (ip.attempts > IP_MAX_ATTEMPTS) {
      await this.refused(email, command.ip, null, 'throttled');
      throw new SignInThrottledError(secondsUntil(ip.windowStartedAt.getTime() + IP_WINDOW_MS, now));
    }
    const account = await this.throttle.addAttempt('account', email, now, ACCOUNT_WINDOW_MS);
    if (account.lockedUntil && account.lockedUntil > now) {
      await this.refused(email, command.ip, null, 'throttled');
      throw new SignInThrottledError(secondsUntil(account.lockedUntil.getTime(), now));
    }
    if (account.attempts > ACCOUNT_MAX_FAILURES) {
      // Parallel attempts past the limit while the fifth failure was still being checked.
      await this.refused(email, command.ip, null, 'throttled');
      throw new SignInThrottledError(ACCOUNT_LOCK_MS / 1000);
    }

    const admin = await this.admins.findByEmail(email);
    const matched = await this.checkPassword(admin, command.password);
    if (!admin || !matched) {
      if (account.attempts >= ACCOUNT_MAX_FAILURES) await this.throttle.lock('account', email, new Date(now.getTime() + ACCOUNT_LOCK_MS));
      await this.refused(email, command.ip, admin?.id ?? null, 'bad_credentials');
      throw new InvalidCredentialsError();
    }

    await this.throttle.clear('account', email);
    const signedIn = await this.starter.start(admin, command, now);
    await this.audit.record(adminActor(admin, command.ip), { action: 'admin.signed_in', targetType: 'admin', targetId: admin.id, details: { email: admin.email } });
    return signedIn;
  }

  /** Verifies against the admin's hash (rehashing it when its parameters are below the current ones), or a dummy. */
  private async checkPassword(admin: Admin | null, password: string): Promise<boolean> {
    if (password.length > MAX_PASSWORD_INPUT) return false;
    if (!admin) {
      await this.hasher.verifyDummy(password);
      return false;
    }
    const check = await this.hasher.verify(password, admin.passwordHash);
    if (check.matches && check.needsRehash) await this.admins.updatePasswordHash(admin.id, await this.hasher.hash(password), this.clock.now());
    return check.matches;
  }

  private async refused(email: string, ip: string | null, adminId: string | null, reason: 'bad_credentials' | 'throttled'): Promise<void> {
    const actor: AuditActor = { kind: 'admin', id: null, label: null, ip };
    await this.audit.record(actor, { action: 'admin.sign_in_failed', targetType: 'admin', targetId: adminId, details: { email, reason } });
  }
}

function secondsUntil(time: number, now: Date): number {
  return Math.max(1, Math.ceil((time - now.getTime()) / 1000));
}

export interface SetupToken {
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

export abstract class SetupTokenRepository {
  abstract insert(token: SetupToken): Promise<void>;
  /** The token when it is unused and unexpired at `now`. */
  abstract findUsable(tokenHash: string, now: Date): Promise<SetupToken | null>;
  /** Is there any unused token unexpired at `now`? */
  abstract anyUsable(now: Date): Promise<boolean>;
  /** Marks the token used, if it still is usable; false otherwise. */
  abstract markUsed(tokenHash: string, now: Date, adminId: string): Promise<boolean>;
}

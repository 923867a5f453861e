export interface PasswordCheck {
  readonly matches: boolean;
  /** The stored hash was made with weaker parameters than the current ones: store a new hash. */
  readonly needsRehash: boolean;
}

/** Port: slow, salted password hashing. */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  /** Compares in constant time; a malformed stored hash does not match. */
  abstract verify(password: string, stored: string): Promise<PasswordCheck>;
  /**
   * The same work as `verify` against a hash that matches nothing: sign-in with an unknown email takes as long as
   * with a known one.
   */
  abstract verifyDummy(password: string): Promise<void>;
}

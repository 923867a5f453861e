/** Port: the list of the most common passwords, lowercase. */
export abstract class CommonPasswords {
  /** Loads the list (once); `has` may be called only after it resolved. */
  abstract load(): Promise<void>;
  abstract has(lowercasePassword: string): boolean;
}

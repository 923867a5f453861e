import type { KeysetQuery, KeysetSlice } from '#core';
import type { Section } from '../domain/section.js';

export interface FindOptions {
  /**
   * Lock the row until the current transaction ends. A write reads, changes and saves the whole section with
   * its translations, so concurrent writers of one section must take turns or they overwrite each other.
   */
  readonly forUpdate?: boolean;
  /**
   * Lock it against changes and deletion until the transaction ends, while other readers with the same lock go
   * on: what placing something in it needs (many writers may fill one section at once).
   */
  readonly forShare?: boolean;
}

/** Port: sections with their translations. */
export abstract class SectionRepository {
  abstract findById(id: string, options?: FindOptions): Promise<Section | null>;
  abstract findDefault(): Promise<Section | null>;
  /** Serialises changes of the default section until the current transaction ends (exactly one default, even under concurrency). */
  abstract lockDefault(): Promise<void>;
  /** Keyset page ordered by (position, id). */
  abstract list(query: KeysetQuery): Promise<KeysetSlice<Section>>;
  /**
   * Serialises choosing the next position until the current transaction ends, so that sections created at once
   * without a position each go after the last one instead of sharing its next position.
   */
  abstract lockNextPosition(): Promise<void>;
  /** The position after the last section's. */
  abstract nextPosition(): Promise<number>;
  abstract insert(section: Section): Promise<void>;
  /** Saves the section's fields and its translations. */
  abstract update(section: Section): Promise<void>;
  abstract delete(id: string): Promise<void>;
  abstract countCollections(id: string): Promise<number>;
}

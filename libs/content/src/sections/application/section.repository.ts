import type { KeysetQuery, KeysetSlice } from '#core';
import type { Section } from '../domain/section.js';

/** Port: sections with their translations. */
export abstract class SectionRepository {
  abstract findById(id: string): Promise<Section | null>;
  abstract findDefault(): Promise<Section | null>;
  /** Keyset page ordered by (position, id). */
  abstract list(query: KeysetQuery): Promise<KeysetSlice<Section>>;
  abstract nextPosition(): Promise<number>;
  abstract insert(section: Section): Promise<void>;
  /** Saves the section's fields and its translations. */
  abstract update(section: Section): Promise<void>;
  abstract delete(id: string): Promise<void>;
  abstract countCollections(id: string): Promise<number>;
}

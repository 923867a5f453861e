import type { KeysetQuery, KeysetSlice } from '#core';
import type { Collection } from '../domain/collection.js';

export interface CollectionFilter {
  readonly sectionId?: string;
}

export interface FindOptions {
  /**
   * Lock the row until the current transaction ends. A write reads, changes and saves the whole collection with
   * its translations, so concurrent writers of one collection must take turns or they overwrite each other.
   */
  readonly forUpdate?: boolean;
  /**
   * Lock it against changes and deletion until the transaction ends, while other readers with the same lock go
   * on: what placing something in it needs (many writers may fill one section at once).
   */
  readonly forShare?: boolean;
}

/** Port: collections with their translations. */
export abstract class CollectionRepository {
  abstract findById(id: string, options?: FindOptions): Promise<Collection | null>;
  /** Keyset page, newest first: (createdAt, id) descending. */
  abstract list(query: KeysetQuery, filter: CollectionFilter): Promise<KeysetSlice<Collection>>;
  abstract shortIdExists(shortId: string): Promise<boolean>;
  /** Throws ConflictError when the shortId is taken. */
  abstract insert(collection: Collection): Promise<void>;
  /** Saves fields and translations; throws ConflictError when the shortId is taken. */
  abstract update(collection: Collection): Promise<void>;
  abstract delete(id: string): Promise<void>;
  abstract countChildren(id: string): Promise<number>;
  /** IDs from `id` up to its root: [id, parent, grandparent, ...]. */
  abstract lineage(id: string): Promise<string[]>;
  /** Sets the section of every collection below `id` (a subtree moves as one). */
  abstract setSectionOfDescendants(id: string, sectionId: string | null, at: Date): Promise<string[]>;
  /** Serialises tree changes until the current transaction ends, so concurrent moves cannot form a cycle. */
  abstract lockTree(): Promise<void>;
}

import type { CollectionRow, SectionRow, StructureRows } from './help-center-read.repository.js';
import { collectionLink, sectionLink, type SiteContext } from './help-center-site.js';
import type { CollectionLink, CollectionNode, SectionLink } from './help-center-views.js';

/**
 * The sections and collections of the help center with where their live articles are, built from one read:
 * article counts include descendants; collections without live articles (in them or below) are left out.
 */
export class HelpCenterTree {
  private readonly collections = new Map<string, CollectionRow>();
  private readonly children = new Map<string | null, CollectionRow[]>();
  private readonly direct = new Map<string, { count: number; last: Date }>();
  private readonly loose = new Map<string, number>();
  private readonly totals = new Map<string, { count: number; last: Date | null }>();
  readonly sections: readonly SectionRow[];

  constructor(
    rows: StructureRows,
    private readonly context: SiteContext,
  ) {
    this.sections = rows.sections;
    for (const collection of rows.collections) {
      this.collections.set(collection.id, collection);
      const siblings = this.children.get(collection.parentId) ?? [];
      siblings.push(collection);
      this.children.set(collection.parentId, siblings);
    }
    for (const count of rows.counts) {
      if (count.collectionId === null) this.loose.set(count.sectionId, (this.loose.get(count.sectionId) ?? 0) + count.count);
      else {
        const known = this.direct.get(count.collectionId);
        const last = known && known.last > count.lastPublishedAt ? known.last : count.lastPublishedAt;
        this.direct.set(count.collectionId, { count: (known?.count ?? 0) + count.count, last });
      }
    }
  }

  collectionByShortId(shortId: string): CollectionRow | undefined {
    for (const collection of this.collections.values()) if (collection.shortId === shortId) return collection;
    return undefined;
  }

  section(id: string | null): SectionRow | undefined {
    return id === null ? undefined : this.sections.find((section) => section.id === id);
  }

  sectionLink(section: SectionRow): SectionLink {
    return sectionLink(section, this.context);
  }

  /** Live articles in the collection and its descendants, and the newest publication among them. */
  total(id: string): { count: number; last: Date | null } {
    return this.totalOf(id, new Set());
  }

  private totalOf(id: string, seen: Set<string>): { count: number; last: Date | null } {
    const known = this.totals.get(id);
    if (known) return known;
    seen.add(id);
    const own = this.direct.get(id);
    let count = own?.count ?? 0;
    let last = own?.last ?? null;
    for (const child of this.children.get(id) ?? []) {
      if (seen.has(child.id)) continue;
      const below = this.totalOf(child.id, seen);
      count += below.count;
      if (below.last && (!last || below.last > last)) last = below.last;
    }
    const total = { count, last };
    this.totals.set(id, total);
    return total;
  }

  /** Live articles placed in the section outside any collection. */
  looseCount(sectionId: string): number {
    return this.loose.get(sectionId) ?? 0;
  }

  link(collection: CollectionRow): CollectionLink {
    return collectionLink(collection, this.total(collection.id).count, this.context);
  }

  /** The collection's children that hold live articles, as links, in order. */
  childLinks(id: string): CollectionLink[] {
    return (this.children.get(id) ?? []).filter((child) => this.total(child.id).count > 0).map((child) => this.link(child));
  }

  /** The section's top-level collections that hold live articles, nested, in order. */
  sectionNodes(sectionId: string): CollectionNode[] {
    return (this.children.get(null) ?? []).filter((collection) => collection.sectionId === sectionId).flatMap((collection) => this.node(collection, new Set()));
  }

  private node(collection: CollectionRow, seen: Set<string>): CollectionNode[] {
    if (seen.has(collection.id) || this.total(collection.id).count === 0) return [];
    seen.add(collection.id);
    return [{ ...this.link(collection), children: (this.children.get(collection.id) ?? []).flatMap((child) => this.node(child, seen)) }];
  }

  /** The collection's ancestors, root first (itself excluded). */
  ancestors(collection: CollectionRow): CollectionRow[] {
    const trail: CollectionRow[] = [];
    const seen = new Set([collection.id]);
    let parent = collection.parentId === null ? undefined : this.collections.get(collection.parentId);
    while (parent && !seen.has(parent.id)) {
      trail.unshift(parent);
      seen.add(parent.id);
      parent = parent.parentId === null ? undefined : this.collections.get(parent.parentId);
    }
    return trail;
  }

  /** Collections holding live articles, with their newest publication (for the sitemap). */
  liveCollections(): Array<{ collection: CollectionRow; last: Date }> {
    return [...this.collections.values()].flatMap((collection) => {
      const total = this.total(collection.id);
      return total.count > 0 && total.last ? [{ collection, last: total.last }] : [];
    });
  }
}

/**
 * The help center's content version (see the help-center-changes migration): every committed transaction that
 * changed what the public pages are made of (helpdesk, sections, collections, articles, their translations, old
 * slugs) adds one to it, whatever the commit order, so a page read after seeing version n shows at least every
 * change the reader's snapshot held.
 */
export abstract class HelpCenterVersionRepository {
  /** The current version, an increasing whole number as text. */
  abstract current(): Promise<string>;
  /** Folds the recorded changes into one record of the same weight (the version does not change); returns how many were folded. */
  abstract compact(): Promise<number>;
}

export const TRANSLATION_STATUSES = ['draft', 'published'] as const;
/** Status of a section or collection translation: whether readers see it yet. */
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];

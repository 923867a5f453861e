import { NotFoundError } from '#core';
import type { Section } from '../domain/section.js';
import type { FindOptions, SectionRepository } from './section.repository.js';

/** The section a use case acts on, locked as `options` say; NotFoundError (404) when there is none. */
export async function requireSection(sections: SectionRepository, id: string, options?: FindOptions): Promise<Section> {
  const section = await sections.findById(id, options);
  if (!section) throw new NotFoundError('Section', id);
  return section;
}

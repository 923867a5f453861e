import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import type { Section } from '../domain/section.js';
import { type FindOptions, SectionRepository } from './section.repository.js';

@Injectable()
export class GetSectionUseCase {
  constructor(private readonly sections: SectionRepository) {}

  async execute(id: string, options?: FindOptions): Promise<Section> {
    const section = await this.sections.findById(id, options);
    if (!section) throw new NotFoundError('Section', id);
    return section;
  }
}

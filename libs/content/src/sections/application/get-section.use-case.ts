import { Injectable } from '@nestjs/common';
import { NotFoundError } from '#core';
import type { Section } from '../domain/section.js';
import { SectionRepository } from './section.repository.js';

@Injectable()
export class GetSectionUseCase {
  constructor(private readonly sections: SectionRepository) {}

  async execute(id: string): Promise<Section> {
    const section = await this.sections.findById(id);
    if (!section) throw new NotFoundError('Section', id);
    return section;
  }
}

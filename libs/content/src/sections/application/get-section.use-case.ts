import { Injectable } from '@nestjs/common';
import type { Section } from '../domain/section.js';
import { requireSection } from './section-access.js';
import { SectionRepository } from './section.repository.js';

@Injectable()
export class GetSectionUseCase {
  constructor(private readonly sections: SectionRepository) {}

  execute(id: string): Promise<Section> {
    return requireSection(this.sections, id);
  }
}

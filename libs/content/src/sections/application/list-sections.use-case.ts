import { Injectable } from '@nestjs/common';
import { type CursorPage, type CursorRequest, Paginator } from '#core';
import type { Section } from '../domain/section.js';
import { SectionRepository } from './section.repository.js';

const SECTIONS_LIST = 'sections';

/** Sections in display order (position, then ID), cursor-paginated. */
@Injectable()
export class ListSectionsUseCase {
  constructor(
    private readonly sections: SectionRepository,
    private readonly paginator: Paginator,
  ) {}

  execute(request: CursorRequest): Promise<CursorPage<Section>> {
    return this.paginator.list(SECTIONS_LIST, request, 'position_asc', (query) => this.sections.list(query), (s) => ({ value: s.snapshot().position, id: s.id }), (s) => s);
  }
}

import { Injectable } from '@nestjs/common';
import { DomainError, HttpConfig, NotFoundError, Principal, type Scope, ValidationError } from '#core';
import {
  articleView,
  CreateArticleUseCase,
  CreateCollectionUseCase,
  CreateSectionUseCase,
  GetArticleDraftUseCase,
  GetArticleUseCase,
  GetCollectionUseCase,
  GetSectionUseCase,
  ListSectionsUseCase,
  SearchArticlesUseCase,
  UpdateArticleUseCase,
  UpdateCollectionUseCase,
  UpdateSectionUseCase,
} from '#content';
import type { Targets, TaskOutput } from '../domain/task.js';
import type { GenerationTarget, RelatedArticle } from './content-generator.port.js';

const STOP_WORDS = new Set(
  'a an and are about add article articles be by create draft for from guide how in into is it make new of on or our page please section that the this to update we what when where which with write you your'.split(' '),
);

/** The helpdesk content a task reads (its target, related articles) and writes (applying an output). */
@Injectable()
export class TaskContent {
  constructor(
    private readonly articles: GetArticleUseCase,
    private readonly drafts: GetArticleDraftUseCase,
    private readonly search: SearchArticlesUseCase,
    private readonly collections: GetCollectionUseCase,
    private readonly sections: GetSectionUseCase,
    private readonly listSections: ListSectionsUseCase,
    private readonly createArticle: CreateArticleUseCase,
    private readonly updateArticle: UpdateArticleUseCase,
    private readonly createCollection: CreateCollectionUseCase,
    private readonly updateCollection: UpdateCollectionUseCase,
    private readonly createSection: CreateSectionUseCase,
    private readonly updateSection: UpdateSectionUseCase,
    private readonly http: HttpConfig,
  ) {}

  /**
   * 400 for targets that do not exist (or more than one kind of update target). Every given ID is looked up, an
   * empty one too: a target that is not checked here would reach the task's foreign keys.
   */
  async checkTargets(targets: Targets): Promise<void> {
    if (targets.targetArticleId !== null) await this.articles.execute(targets.targetArticleId, 'json', Principal.service()).catch(rethrowAs('targetArticleId'));
    if (targets.targetCollectionId !== null) await this.collections.execute(targets.targetCollectionId).catch(rethrowAs('targetCollectionId'));
    if (targets.targetSectionId !== null) await this.sections.execute(targets.targetSectionId).catch(rethrowAs('targetSectionId'));
  }

  /**
   * What the task updates: the target article (its open draft if it has one), else a target collection or section
   * when no article is named and the task is not about creating inside it; null when the task creates.
   */
  async target(targets: Targets, createsInside: boolean): Promise<GenerationTarget | null> {
    if (targets.targetArticleId) {
      const id = targets.targetArticleId;
      const draft = await this.drafts.execute(id, 'markdown').catch(() => null);
      if (draft) return { kind: 'article', id, title: draft.title, markdown: String(draft.content) };
      const record = await this.articles.execute(id, 'markdown', Principal.service());
      return { kind: 'article', id, title: record.title, markdown: String(record.content ?? '') };
    }
    if (createsInside) return null;
    if (targets.targetCollectionId) {
      const c = (await this.collections.execute(targets.targetCollectionId)).snapshot();
      return { kind: 'collection', id: c.id, title: c.title, markdown: c.subtitle ?? '' };
    }
    if (targets.targetSectionId) {
      const s = (await this.sections.execute(targets.targetSectionId)).snapshot();
      return { kind: 'section', id: s.id, title: s.name, markdown: '' };
    }
    return null;
  }

  /** Published articles matching any of the instruction's significant words, most relevant first. */
  async related(instruction: string, limit: number, exclude: string | null): Promise<RelatedArticle[]> {
    const terms = [...new Set((instruction.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w)))].slice(0, 12);
    if (terms.length === 0) return [];
    const page = await this.search.execute({ query: terms.join(' or '), pageSize: limit + 1 });
    const hits = page.results.filter((hit) => hit.articleId !== exclude).slice(0, limit);
    const related: RelatedArticle[] = [];
    for (const hit of hits) {
      const record = await this.articles.execute(hit.articleId, 'markdown', Principal.service()).catch(() => null);
      if (record) related.push({ id: hit.articleId, title: record.title, url: articleView(record, 'markdown', this.http.publicUrl).url, markdown: String(record.content ?? '') });
    }
    return related;
  }

  /** The current content an update output is compared with (title line plus body). */
  async current(output: TaskOutput): Promise<string | null> {
    if (output.operation !== 'update') return null;
    const target = await this.target(output, false).catch(() => null);
    return target ? asDocument(target.title, target.markdown, output.kind) : null;
  }

  /**
   * Writes an output: an article lands as the target's open draft or as a new draft article (never published); a
   * collection or section is created or updated. Returns what was created, if anything.
   */
  async apply(output: TaskOutput, keyId: string, scopes: readonly Scope[] | null): Promise<Partial<Targets>> {
    const principal = new Principal(keyId, scopes);
    principal.require('content:write');
    switch (output.kind) {
      case 'article':
        if (output.operation === 'update') {
          await this.updateArticle.execute(output.targetArticleId!, { title: output.title, markdown: output.markdown }, principal);
          return {};
        }
        return {
          targetArticleId: (
            await this.createArticle.execute(
              { title: output.title, markdown: output.markdown, sectionId: output.targetSectionId ?? (await this.defaultSection()), collectionId: output.targetCollectionId },
              principal,
            )
          ).record.props.id,
        };
      case 'collection':
        if (output.operation === 'update') {
          await this.updateCollection.execute(output.targetCollectionId!, { title: output.title, subtitle: output.markdown.trim() || null });
          return {};
        }
        return { targetCollectionId: (await this.createCollection.execute({ title: output.title, subtitle: output.markdown.trim() || null, sectionId: output.targetSectionId })).id };
      case 'section':
        if (output.operation === 'update') {
          await this.updateSection.execute(output.targetSectionId!, { name: output.title });
          return {};
        }
        return { targetSectionId: (await this.createSection.execute({ name: output.title })).id };
    }
  }

  private async defaultSection(): Promise<string> {
    let cursor: string | undefined;
    do {
      const page = await this.listSections.execute({ pageSize: 100, startCursor: cursor });
      const found = page.results.find((s) => s.snapshot().isDefault);
      if (found) return found.id;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    throw new DomainError('conflict', 'The helpdesk has no default section');
  }
}

/** How an output or its target reads in a diff: `# title` then the body (the subtitle of a collection). */
export function asDocument(title: string, markdown: string, kind: TaskOutput['kind']): string {
  const body = kind === 'section' ? '' : markdown.trim();
  return body ? `# ${title}\n\n${body}\n` : `# ${title}\n`;
}

function rethrowAs(field: string): (error: unknown) => never {
  return (error: unknown) => {
    if (error instanceof NotFoundError) throw ValidationError.field(field, `${field} ${error.message.replace(/ not found$/, ' does not exist')}`);
    throw error;
  };
}

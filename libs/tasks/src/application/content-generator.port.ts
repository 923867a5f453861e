import type { OutputKind, ProposedChange } from '../domain/task.js';

export interface GenerationTarget {
  readonly kind: OutputKind;
  readonly id: string;
  readonly title: string;
  /** The article body (its open draft if it has one), a collection's subtitle, or '' for a section. */
  readonly markdown: string;
}

export interface RelatedArticle {
  readonly id: string;
  readonly title: string;
  readonly url: string | null;
  readonly markdown: string;
}

export interface GenerationRequest {
  readonly instruction: string;
  /** What the task updates, if anything; otherwise it creates. */
  readonly target: GenerationTarget | null;
  /** Where a new article goes, if the task names one. */
  readonly collectionId: string | null;
  readonly sectionId: string | null;
  /** Published articles found by searching for the instruction, most relevant first. */
  readonly related: readonly RelatedArticle[];
  readonly signal: AbortSignal;
}

export interface GenerationResult {
  readonly changes: readonly ProposedChange[];
}

/** Why a generation failed, in words fit for the task's `error`. */
export class GenerationError extends Error {
  constructor(
    message: string,
    /** Worth retrying later (the model server is down), rather than a final answer (malformed output). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}

/** Port: turns an instruction (with the target's content and related articles) into proposed changes. */
export abstract class ContentGenerator {
  /** `builtin`, or `openai:<model>`: recorded on the task. */
  abstract readonly name: string;
  abstract generate(request: GenerationRequest): Promise<GenerationResult>;
}

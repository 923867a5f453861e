import { InvalidStateError } from '#core/domain';

export const TASK_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const OUTPUT_KINDS = ['article', 'collection', 'section'] as const;
export type OutputKind = (typeof OUTPUT_KINDS)[number];
export const OUTPUT_OPERATIONS = ['create', 'update'] as const;
export type OutputOperation = (typeof OUTPUT_OPERATIONS)[number];
export const OUTPUT_STATUSES = ['proposed', 'applied', 'rejected', 'failed'] as const;
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];

export interface Targets {
  readonly targetArticleId: string | null;
  readonly targetCollectionId: string | null;
  readonly targetSectionId: string | null;
}

export interface Task extends Targets {
  readonly id: string;
  readonly title: string | null;
  readonly instruction: string;
  readonly status: TaskStatus;
  readonly autoApply: boolean;
  /** Which generator produced the outputs (`builtin`, or `openai:<model>`). */
  readonly generator: string | null;
  readonly error: string | null;
  readonly attempts: number;
  readonly createdByKeyId: string;
  /** The scopes of the key that created it (autoApply acts with them); null = legacy full access. */
  readonly createdByScopes: readonly string[] | null;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface TaskOutput extends Targets {
  readonly id: string;
  readonly taskId: string;
  readonly position: number;
  readonly kind: OutputKind;
  readonly operation: OutputOperation;
  readonly status: OutputStatus;
  readonly title: string;
  /** Proposed content: the article body, or the collection's subtitle / nothing for a section. */
  readonly markdown: string;
  readonly error: string | null;
  readonly appliedAt: Date | null;
  readonly createdAt: Date;
}

/** A proposed change as a generator returns it, before it is stored. */
export interface ProposedChange extends Targets {
  readonly kind: OutputKind;
  readonly operation: OutputOperation;
  readonly title: string;
  readonly markdown: string;
}

export function isFinished(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export function assertCancellable(task: Task): void {
  if (isFinished(task.status)) throw new InvalidStateError(`Task ${task.id} is ${task.status}; only a queued or running task can be cancelled`);
}

export function assertDecidable(output: TaskOutput): void {
  if (output.status !== 'proposed') throw new InvalidStateError(`Output ${output.id} is ${output.status}; only a proposed output can be applied or rejected`);
}

/** A short title from an instruction, for a task created without one: its first sentence, at most 80 characters. */
export function titleFromInstruction(instruction: string): string {
  const first = instruction.trim().split(/(?<=[.!?])\s|\n/)[0]!.replace(/[.!?]+$/, '').trim();
  const sentence = first.length > 0 ? first : instruction.trim();
  // "Write an article about how to reset a password" is the task "How to reset a password".
  const topic = WRITE_REQUEST.exec(sentence)?.[1]?.trim() || sentence;
  const title = topic.length > 80 ? `${topic.slice(0, 79).replace(/\s+\S*$/, '')}…` : topic;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** The request part of "write an article about X", "draft a guide on X", … (X is the topic). */
const WRITE_REQUEST =
  /^(?:please\s+)?(?:write|draft|create|add|make|document)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:help\s+)?(?:article|guide|page|doc|faq|how-to)\s*(?:about|on|for|covering|explaining|describing|that explains)?\s*(.+)$/i;

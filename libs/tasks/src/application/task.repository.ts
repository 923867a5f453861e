import type { ProposedChange, Task, TaskOutput, TaskStatus } from '../domain/task.js';

export type NewTask = Omit<Task, 'status' | 'generator' | 'error' | 'attempts' | 'startedAt' | 'finishedAt' | 'updatedAt'>;

export abstract class TaskRepository {
  /** The task as stored (queued). */
  abstract insert(task: NewTask): Promise<Task>;
  abstract find(id: string, options?: { forUpdate?: boolean }): Promise<Task | null>;
  /** Newest first. */
  abstract listOffset(limit: number, offset: number): Promise<{ tasks: Task[]; total: number }>;
  abstract outputs(taskId: string): Promise<TaskOutput[]>;
  abstract output(taskId: string, outputId: string, options?: { forUpdate?: boolean }): Promise<TaskOutput | null>;
  /** queued/running → running, attempts + 1: the task this run may work on, or null (finished or cancelled). */
  abstract claim(id: string, at: Date): Promise<Task | null>;
  /** The task as updated; null when there is none. */
  abstract setStatus(id: string, status: TaskStatus, at: Date, fields?: { error?: string | null; title?: string | null; generator?: string | null }): Promise<Task | null>;
  /** Replaces the task's outputs (a retried run never duplicates them). */
  abstract replaceOutputs(taskId: string, changes: readonly ProposedChange[], at: Date): Promise<TaskOutput[]>;
  /** The output as decided; null when there is none. */
  abstract decideOutput(outputId: string, status: 'applied' | 'rejected' | 'failed', at: Date, fields?: { error?: string | null; created?: Partial<Pick<TaskOutput, 'targetArticleId' | 'targetCollectionId' | 'targetSectionId'>> }): Promise<TaskOutput | null>;
  /** Running tasks started before `runningBefore` (their worker died) and queued tasks untouched since `queuedBefore` (their job may be lost). */
  abstract stale(runningBefore: Date, queuedBefore: Date, limit: number): Promise<string[]>;
  abstract requeue(id: string, at: Date): Promise<void>;
}

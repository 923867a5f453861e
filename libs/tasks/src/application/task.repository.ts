import type { ProposedChange, Task, TaskOutput, TaskStatus } from '../domain/task.js';

export type NewTask = Omit<Task, 'status' | 'generator' | 'error' | 'attempts' | 'startedAt' | 'finishedAt' | 'updatedAt'>;

export abstract class TaskRepository {
  abstract insert(task: NewTask): Promise<void>;
  abstract find(id: string, options?: { forUpdate?: boolean }): Promise<Task | null>;
  /** Newest first. */
  abstract listOffset(limit: number, offset: number): Promise<{ tasks: Task[]; total: number }>;
  abstract outputs(taskId: string): Promise<TaskOutput[]>;
  abstract output(taskId: string, outputId: string, options?: { forUpdate?: boolean }): Promise<TaskOutput | null>;
  /** queued/running → running, attempts + 1: the task this run may work on, or null (finished or cancelled). */
  abstract claim(id: string, at: Date): Promise<Task | null>;
  abstract setStatus(id: string, status: TaskStatus, at: Date, fields?: { error?: string | null; title?: string | null; generator?: string | null }): Promise<void>;
  /** Replaces the task's outputs (a retried run never duplicates them). */
  abstract replaceOutputs(taskId: string, changes: readonly ProposedChange[], at: Date): Promise<TaskOutput[]>;
  abstract decideOutput(outputId: string, status: 'applied' | 'rejected' | 'failed', at: Date, fields?: { error?: string | null; created?: Partial<Pick<TaskOutput, 'targetArticleId' | 'targetCollectionId' | 'targetSectionId'>> }): Promise<void>;
  /** Running tasks started before `runningBefore` (their worker died) and queued tasks untouched since `queuedBefore` (their job may be lost). */
  abstract stale(runningBefore: Date, queuedBefore: Date, limit: number): Promise<string[]>;
  abstract requeue(id: string, at: Date): Promise<void>;
}

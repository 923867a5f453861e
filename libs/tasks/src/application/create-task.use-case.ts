import { Injectable, Logger } from '@nestjs/common';
import { Clock, JobQueue, newId, type Principal, ValidationError } from '#core';
import type { Targets } from '../domain/task.js';
import { TaskContent } from './task-content.js';
import { TaskRepository } from './task.repository.js';
import { enqueueRun } from './task-run-queue.js';
import { type TaskView, taskView } from './task-views.js';

/** 202: the task is stored as queued and its run put on the job queue; the worker runs it. */
@Injectable()
export class CreateTaskUseCase {
  private readonly logger = new Logger('Tasks');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  /** The task as created (queued, no outputs), whatever a worker does with it next. */
  async execute(
    request: Partial<Targets> & { readonly instruction: string; readonly title?: string | null; readonly autoApply?: boolean },
    principal: Principal,
  ): Promise<TaskView> {
    const instruction = request.instruction.trim();
    if (instruction.length === 0) throw ValidationError.field('instruction', 'instruction must not be empty');
    const targets: Targets = {
      targetArticleId: request.targetArticleId ?? null,
      targetCollectionId: request.targetCollectionId ?? null,
      targetSectionId: request.targetSectionId ?? null,
    };
    await this.content.checkTargets(targets);
    // The row as inserted, before the job is queued: a job runner may claim the task at once.
    const created = await this.tasks.insert({
      id: newId('tsk'),
      title: request.title?.trim() || null,
      instruction,
      ...targets,
      autoApply: request.autoApply ?? false,
      createdByKeyId: principal.keyId,
      createdByScopes: principal.granted,
      createdAt: this.clock.now(),
    });
    await enqueueRun(this.jobs, created.id, this.logger);
    return taskView(created, []);
  }
}

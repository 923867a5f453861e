import { Injectable } from '@nestjs/common';
import { Clock, NotFoundError, UnitOfWork } from '#core';
import { assertCancellable, titleFromInstruction } from '../domain/task.js';
import { TaskRepository } from './task.repository.js';
import { type TaskView, taskView } from './task-views.js';

/** A queued or running task stops: a running one is left at its next step and its results are discarded. */
@Injectable()
export class CancelTaskUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The cancelled task with its outputs. 404 for an unknown task, 409 for a finished one. */
  async execute(id: string): Promise<TaskView> {
    return this.unitOfWork.run(async () => {
      const task = await this.tasks.find(id, { forUpdate: true });
      if (!task) throw new NotFoundError('Task', id);
      assertCancellable(task);
      const cancelled = await this.tasks.setStatus(id, 'cancelled', this.clock.now(), { title: task.title ?? titleFromInstruction(task.instruction) });
      return taskView(cancelled!, await this.tasks.outputs(id));
    });
  }
}

import { Injectable } from '@nestjs/common';
import { NotFoundError, type Principal } from '#core';
import { TaskRepository } from './task.repository.js';
import { type TaskBasicView, type TaskView, taskBasicView, taskView } from './task-views.js';

/**
 * One task, as much of it as the key may see: the whole task with its outputs for a key with content:write (the
 * outputs hold proposed drafts); id, title and status otherwise.
 */
@Injectable()
export class GetTaskUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  async execute(id: string, principal: Principal): Promise<TaskView | TaskBasicView> {
    const task = await this.tasks.find(id);
    if (!task) throw new NotFoundError('Task', id);
    if (!principal.has('content:write')) return taskBasicView(task);
    return taskView(task, await this.tasks.outputs(id));
  }
}

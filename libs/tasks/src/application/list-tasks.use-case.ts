import { Injectable } from '@nestjs/common';
import { checkOffsetRequest, type OffsetPage, offsetPage, type OffsetRequest } from '#core';
import { TaskRepository } from './task.repository.js';
import { type TaskBasicView, taskBasicView } from './task-views.js';

/** An offset page of tasks, newest first, each as id, title and status (what every key that may list them sees). */
@Injectable()
export class ListTasksUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  async execute(request: OffsetRequest): Promise<OffsetPage<TaskBasicView>> {
    const { limit, offset } = checkOffsetRequest(request);
    const { tasks, total } = await this.tasks.listOffset(limit, offset);
    return offsetPage(tasks.map(taskBasicView), total, { limit, offset });
  }
}

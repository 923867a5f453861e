import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '#core';
import { lockDecidableOutput } from './task-output-access.js';
import { TaskRepository } from './task.repository.js';
import { type TaskOutputView, taskOutputView } from './task-views.js';

/** Rejects a proposed output: nothing is written to the content, and the output can no longer be applied. */
@Injectable()
export class RejectTaskOutputUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The output as rejected. */
  async execute(taskId: string, outputId: string): Promise<TaskOutputView> {
    return this.unitOfWork.run(async () => {
      await lockDecidableOutput(this.tasks, taskId, outputId);
      return taskOutputView((await this.tasks.decideOutput(outputId, 'rejected', this.clock.now()))!);
    });
  }
}

import { Injectable } from '@nestjs/common';
import { Clock, type Principal, UnitOfWork } from '#core';
import { TaskContent } from './task-content.js';
import { lockDecidableOutput } from './task-output-access.js';
import { TaskRepository } from './task.repository.js';
import { type TaskOutputView, taskOutputView } from './task-views.js';

/**
 * Applies a proposed output with the caller's key (which needs content:write): an article lands as the target's
 * open draft or a new draft article (never published), a collection or section is created or updated. The content
 * write and the output's new status commit together.
 */
@Injectable()
export class ApplyTaskOutputUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The output as applied (appliedAt set, the created resource's ID among its targets). */
  async execute(taskId: string, outputId: string, principal: Principal): Promise<TaskOutputView> {
    return this.unitOfWork.run(async () => {
      const output = await lockDecidableOutput(this.tasks, taskId, outputId);
      const created = await this.content.apply(output, principal.keyId, principal.granted);
      return taskOutputView((await this.tasks.decideOutput(outputId, 'applied', this.clock.now(), { created }))!);
    });
  }
}

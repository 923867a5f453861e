import { Injectable } from '@nestjs/common';
import { createTwoFilesPatch } from 'diff';
import { NotFoundError } from '#core';
import { asDocument, TaskContent } from './task-content.js';
import { TaskRepository } from './task.repository.js';
import { type TaskOutputDetailView, taskOutputDetailView } from './task-views.js';

/** One output with its proposed content and, for an update, a unified diff of the target's current content against it. */
@Injectable()
export class GetTaskOutputUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
  ) {}

  async execute(taskId: string, outputId: string): Promise<TaskOutputDetailView> {
    const output = await this.tasks.output(taskId, outputId);
    if (!output) throw new NotFoundError('Task output', outputId);
    const current = await this.content.current(output);
    const diff = current === null ? null : createTwoFilesPatch('current', 'proposed', current, asDocument(output.title, output.markdown, output.kind), undefined, undefined, { context: 3 });
    return taskOutputDetailView(output, diff);
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { AiConfig, Clock, JobQueue } from '#core';
import { TaskRepository } from './task.repository.js';
import { enqueueRun } from './task-run-queue.js';

/**
 * Tasks left `running` by a worker that died (past AI_TASK_TIMEOUT_MS plus a minute), and queued tasks whose job
 * may be lost (queued for over a minute), go back on the queue.
 */
@Injectable()
export class RecoverTasksUseCase {
  private readonly logger = new Logger('Tasks');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly ai: AiConfig,
  ) {}

  /** How many tasks went back on the queue. */
  async execute(): Promise<number> {
    const now = this.clock.now();
    const ids = await this.tasks.stale(new Date(now.getTime() - this.ai.taskTimeoutMs - 60_000), new Date(now.getTime() - 60_000), 200);
    for (const id of ids) {
      await this.tasks.requeue(id, now);
      await enqueueRun(this.jobs, id, this.logger);
    }
    return ids.length;
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { AiConfig, Clock, EventOutbox, type Scope, SCOPES, UnitOfWork } from '#core';
import { isFinished, type Task, type TaskOutput, titleFromInstruction } from '../domain/task.js';
import { ContentGenerator, GenerationError, type GenerationResult } from './content-generator.port.js';
import { TaskContent } from './task-content.js';
import { TaskRepository } from './task.repository.js';
import { taskView } from './task-views.js';

const RELATED_ARTICLES = 5;

/**
 * One run of a task (the run-task job): claim it, read its target and related articles, generate, store the
 * outputs and complete it; apply them as drafts when autoApply. At-least-once safe: a finished or cancelled task
 * is left alone, a re-run replaces outputs instead of adding to them, and cancellation is checked between steps.
 */
@Injectable()
export class RunTaskUseCase {
  private readonly logger = new Logger('Tasks');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
    private readonly generator: ContentGenerator,
    private readonly outbox: EventOutbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly ai: AiConfig,
  ) {}

  async execute(taskId: string, lastAttempt: boolean): Promise<void> {
    const task = await this.tasks.claim(taskId, this.clock.now());
    if (!task) return;
    // A run that got as far as storing outputs (then died) resumes from them rather than generating again, so a
    // re-run never duplicates outputs nor applies them twice.
    let outputs = await this.tasks.outputs(taskId);
    if (outputs.length === 0) {
      const generated = await this.generate(task, lastAttempt);
      if (!generated) return;
      const stored = await this.unitOfWork.run(async () => {
        const current = await this.tasks.find(taskId, { forUpdate: true });
        if (!current || current.status !== 'running') return null;
        const saved = await this.tasks.replaceOutputs(taskId, generated.changes, this.clock.now());
        // A task without a title of its own is named after its instruction, never after what the model proposed: the
        // task (id, title, status) is visible to content:read keys, and a proposal made from a draft would show it.
        await this.tasks.setStatus(taskId, 'running', this.clock.now(), { title: titleFromInstruction(task.instruction), generator: this.generator.name });
        return saved;
      });
      if (!stored) return;
      outputs = stored;
    }
    // Applied before the task completes: whoever sees `completed` sees the outputs' final status too.
    if (task.autoApply) await this.autoApply(task, outputs.filter((o) => o.status === 'proposed'));
    await this.unitOfWork.run(async () => {
      const current = await this.tasks.find(taskId, { forUpdate: true });
      if (!current || current.status !== 'running') return;
      await this.tasks.setStatus(taskId, 'completed', this.clock.now(), { error: null, title: titleFromInstruction(task.instruction), generator: this.generator.name });
      await this.record('task.completed', taskId);
    });
  }

  /** The generator's answer, or null when the run ended otherwise (cancelled, or failed and recorded as such). */
  private async generate(task: Task, lastAttempt: boolean): Promise<GenerationResult | null> {
    const taskId = task.id;
    // One signal for the run: aborted at the time limit, or soon after the task is cancelled (checked every 2 s),
    // so a model call in flight stops instead of holding a worker slot.
    const limit = this.ai.taskTimeoutMs;
    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(new GenerationError(`The task ran longer than AI_TASK_TIMEOUT_MS (${limit} ms)`)), limit);
    const watch = setInterval(() => {
      void this.cancelled(taskId).then((cancelled) => cancelled && controller.abort(new GenerationError('The task was cancelled')), () => undefined);
    }, 2_000);
    const signal = controller.signal;
    try {
      const createsInside = !task.targetArticleId && /^(?:please\s+)?(?:write|draft|create|add|make|document)\b/i.test(task.instruction);
      const target = await this.content.target(task, createsInside);
      const related = await this.content.related(task.instruction, RELATED_ARTICLES, target?.kind === 'article' ? target.id : null);
      if (await this.cancelled(taskId)) return null;
      const result = await this.generator.generate({
        instruction: task.instruction,
        target,
        collectionId: task.targetCollectionId,
        sectionId: task.targetSectionId,
        related,
        signal,
      });
      if (signal.aborted) throw signal.reason instanceof GenerationError ? signal.reason : new GenerationError(`The task ran longer than AI_TASK_TIMEOUT_MS (${limit} ms)`);
      return result;
    } catch (error) {
      if (await this.cancelled(taskId)) return null;
      if (error instanceof GenerationError && error.retryable && !lastAttempt) throw error;
      const message = error instanceof GenerationError ? error.message : `The task failed: ${(error as Error).message}`;
      if (!(error instanceof GenerationError)) this.logger.error(`Task ${taskId}: ${(error as Error).stack ?? String(error)}`);
      await this.finish(task, 'failed', { error: message });
      return null;
    } finally {
      clearTimeout(deadline);
      clearInterval(watch);
    }
  }

  private async autoApply(task: Task, outputs: readonly TaskOutput[]): Promise<void> {
    const scopes = task.createdByScopes === null ? null : task.createdByScopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));
    for (const output of outputs) {
      try {
        await this.unitOfWork.run(async () => {
          const created = await this.content.apply(output, task.createdByKeyId, scopes);
          await this.tasks.decideOutput(output.id, 'applied', this.clock.now(), { created });
        });
      } catch (error) {
        await this.tasks.decideOutput(output.id, 'failed', this.clock.now(), { error: (error as Error).message });
      }
    }
  }

  private async cancelled(taskId: string): Promise<boolean> {
    return (await this.tasks.find(taskId))?.status === 'cancelled';
  }

  private async finish(task: Task, status: 'failed', fields: { error: string }): Promise<void> {
    await this.unitOfWork.run(async () => {
      const current = await this.tasks.find(task.id, { forUpdate: true });
      if (!current || isFinished(current.status)) return;
      await this.tasks.setStatus(task.id, status, this.clock.now(), { ...fields, title: titleFromInstruction(task.instruction), generator: this.generator.name });
      await this.record('task.failed', task.id);
    });
  }

  private async record(type: 'task.completed' | 'task.failed', taskId: string): Promise<void> {
    const task = (await this.tasks.find(taskId))!;
    await this.outbox.record(type, taskView(task, await this.tasks.outputs(taskId)));
  }
}

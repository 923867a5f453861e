import { Injectable, Logger } from '@nestjs/common';
import { createTwoFilesPatch } from 'diff';
import {
  AppConfig,
  checkOffsetRequest,
  Clock,
  EventOutbox,
  InvalidStateError,
  JobName,
  JobQueue,
  newId,
  NotFoundError,
  type OffsetPage,
  offsetPage,
  type OffsetRequest,
  type Principal,
  type Scope,
  SCOPES,
  UnitOfWork,
  ValidationError,
  withTimeout,
} from '#core';
import { assertCancellable, assertDecidable, isFinished, type Targets, type Task, type TaskOutput, titleFromInstruction } from '../domain/task.js';
import { ContentGenerator, GenerationError, type GenerationResult } from './content-generator.port.js';
import { asDocument, TaskContent } from './task-content.js';
import { TaskRepository } from './task.repository.js';
import { taskView } from './task-views.js';

export interface CreateTaskCommand extends Partial<Targets> {
  readonly instruction: string;
  readonly title?: string | null;
  readonly autoApply?: boolean;
}

export const RUN_ATTEMPTS = 3;
/** Queued tasks are started through the job queue; this puts one there (the job ID is the task ID). */
async function enqueueRun(jobs: JobQueue, taskId: string, logger: Logger): Promise<void> {
  const add = jobs.add(JobName.RunTask, { taskId }, { jobId: taskId, attempts: RUN_ATTEMPTS, backoff: { type: 'exponential', delayMs: 5_000 }, removeOnFinish: true });
  try {
    await withTimeout(add, 5_000, 'the job queue did not answer in time');
  } catch (error) {
    add.catch(() => undefined);
    logger.warn(`Could not queue task ${taskId} (the recovery sweep will): ${(error as Error).message}`);
  }
}

/** 202: the task is queued; the worker runs it. */
@Injectable()
export class CreateTaskUseCase {
  private readonly logger = new Logger('Tasks');

  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateTaskCommand, principal: Principal): Promise<Task> {
    const instruction = command.instruction.trim();
    if (instruction.length === 0) throw ValidationError.field('instruction', 'instruction must not be empty');
    const targets: Targets = {
      targetArticleId: command.targetArticleId ?? null,
      targetCollectionId: command.targetCollectionId ?? null,
      targetSectionId: command.targetSectionId ?? null,
    };
    await this.content.checkTargets(targets);
    const id = newId('tsk');
    await this.tasks.insert({
      id,
      title: command.title?.trim() || null,
      instruction,
      ...targets,
      autoApply: command.autoApply ?? false,
      createdByKeyId: principal.keyId,
      createdByScopes: principal.granted,
      createdAt: this.clock.now(),
    });
    // Read before queueing: the 202 shows the task as created (queued), whatever a worker does next.
    const created = (await this.tasks.find(id))!;
    await enqueueRun(this.jobs, id, this.logger);
    return created;
  }
}

@Injectable()
export class ListTasksUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  async execute(request: OffsetRequest): Promise<OffsetPage<Task>> {
    const { limit, offset } = checkOffsetRequest(request);
    const { tasks, total } = await this.tasks.listOffset(limit, offset);
    return offsetPage(tasks, total, { limit, offset });
  }
}

@Injectable()
export class GetTaskUseCase {
  constructor(private readonly tasks: TaskRepository) {}

  async execute(id: string, withOutputs: boolean): Promise<{ task: Task; outputs: TaskOutput[] | null }> {
    const task = await this.tasks.find(id);
    if (!task) throw new NotFoundError('Task', id);
    return { task, outputs: withOutputs ? await this.tasks.outputs(id) : null };
  }
}

/** A queued or running task stops: a running one is left at its next step and its results are discarded. */
@Injectable()
export class CancelTaskUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<Task> {
    return this.unitOfWork.run(async () => {
      const task = await this.tasks.find(id, { forUpdate: true });
      if (!task) throw new NotFoundError('Task', id);
      assertCancellable(task);
      await this.tasks.setStatus(id, 'cancelled', this.clock.now(), { title: task.title ?? titleFromInstruction(task.instruction) });
      return (await this.tasks.find(id))!;
    });
  }
}

export interface OutputDetail {
  readonly output: TaskOutput;
  /** Unified diff of the target's current content against the proposal (updates only). */
  readonly diff: string | null;
}

@Injectable()
export class GetTaskOutputUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
  ) {}

  async execute(taskId: string, outputId: string): Promise<OutputDetail> {
    const output = await this.tasks.output(taskId, outputId);
    if (!output) throw new NotFoundError('Task output', outputId);
    const current = await this.content.current(output);
    const diff = current === null ? null : createTwoFilesPatch('current', 'proposed', current, asDocument(output.title, output.markdown, output.kind), undefined, undefined, { context: 3 });
    return { output, diff };
  }
}

/** Applies a proposed output (drafts only, never publishes) or rejects it. */
@Injectable()
export class DecideTaskOutputUseCase {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly content: TaskContent,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async apply(taskId: string, outputId: string, principal: Principal): Promise<TaskOutput> {
    return this.unitOfWork.run(async () => {
      const output = await this.locked(taskId, outputId);
      const created = await this.content.apply(output, principal.keyId, principal.granted);
      await this.tasks.decideOutput(outputId, 'applied', this.clock.now(), { created });
      return (await this.tasks.output(taskId, outputId))!;
    });
  }

  async reject(taskId: string, outputId: string): Promise<TaskOutput> {
    return this.unitOfWork.run(async () => {
      await this.locked(taskId, outputId);
      await this.tasks.decideOutput(outputId, 'rejected', this.clock.now());
      return (await this.tasks.output(taskId, outputId))!;
    });
  }

  private async locked(taskId: string, outputId: string): Promise<TaskOutput> {
    const task = await this.tasks.find(taskId, { forUpdate: true });
    if (!task) throw new NotFoundError('Task', taskId);
    const output = await this.tasks.output(taskId, outputId, { forUpdate: true });
    if (!output) throw new NotFoundError('Task output', outputId);
    // Outputs of a task cancelled (or failed) while running are discarded: only a completed task's can be decided.
    if (task.status !== 'completed') throw new InvalidStateError(`Task ${taskId} is ${task.status}; only the outputs of a completed task can be applied or rejected`);
    assertDecidable(output);
    return output;
  }
}

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
    private readonly config: AppConfig,
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
    const limit = this.config.ai.taskTimeoutMs;
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
    private readonly config: AppConfig,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    const ids = await this.tasks.stale(new Date(now.getTime() - this.config.ai.taskTimeoutMs - 60_000), new Date(now.getTime() - 60_000), 200);
    for (const id of ids) {
      await this.tasks.requeue(id, now);
      await enqueueRun(this.jobs, id, this.logger);
    }
    return ids.length;
  }
}

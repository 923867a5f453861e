import { InvalidStateError, NotFoundError } from '#core';
import { assertDecidable, type TaskOutput } from '../domain/task.js';
import type { TaskRepository } from './task.repository.js';

/**
 * The output to apply or reject, locked with its task for the current transaction (two decisions on the same
 * output run one after the other; the second finds it decided). 404 for an unknown task or output (or an output
 * of another task); 409 unless the task completed and the output is still proposed.
 */
export async function lockDecidableOutput(tasks: TaskRepository, taskId: string, outputId: string): Promise<TaskOutput> {
  const task = await tasks.find(taskId, { forUpdate: true });
  if (!task) throw new NotFoundError('Task', taskId);
  const output = await tasks.output(taskId, outputId, { forUpdate: true });
  if (!output) throw new NotFoundError('Task output', outputId);
  // Outputs of a task cancelled (or failed) while running are discarded: only a completed task's can be decided.
  if (task.status !== 'completed') throw new InvalidStateError(`Task ${taskId} is ${task.status}; only the outputs of a completed task can be applied or rejected`);
  assertDecidable(output);
  return output;
}

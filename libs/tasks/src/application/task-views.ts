import type { Task, TaskOutput } from '../domain/task.js';

// The JSON shapes of tasks as the API returns them (also the data of task.completed / task.failed events).

export function taskBasicView(task: Task) {
  return { id: task.id, title: task.title, status: task.status };
}

export function taskOutputView(o: TaskOutput) {
  return {
    id: o.id,
    kind: o.kind,
    operation: o.operation,
    status: o.status,
    title: o.title,
    targetArticleId: o.targetArticleId,
    targetCollectionId: o.targetCollectionId,
    targetSectionId: o.targetSectionId,
    appliedAt: o.appliedAt?.toISOString() ?? null,
    error: o.error,
  };
}

export function taskView(task: Task, outputs: readonly TaskOutput[]) {
  return {
    ...taskBasicView(task),
    instruction: task.instruction,
    targetArticleId: task.targetArticleId,
    targetCollectionId: task.targetCollectionId,
    targetSectionId: task.targetSectionId,
    autoApply: task.autoApply,
    generator: task.generator,
    error: task.error,
    attempts: task.attempts,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    startedAt: task.startedAt?.toISOString() ?? null,
    finishedAt: task.finishedAt?.toISOString() ?? null,
    outputs: outputs.map(taskOutputView),
  };
}

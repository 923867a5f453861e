import type { Task, TaskOutput } from '../domain/task.js';

// The JSON shapes of tasks as the API returns them (also the data of task.completed / task.failed events).

export type TaskBasicView = ReturnType<typeof taskBasicView>;
export type TaskOutputView = ReturnType<typeof taskOutputView>;
export type TaskOutputDetailView = ReturnType<typeof taskOutputDetailView>;
export type TaskView = ReturnType<typeof taskView>;

/** A task as any key that may read tasks sees it: id, title, status. */
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

/** An output with its proposed content and, for an update, the diff against the target's current content. */
export function taskOutputDetailView(o: TaskOutput, diff: string | null) {
  return { ...taskOutputView(o), markdown: o.markdown, diff };
}

/** The whole task with its outputs, as a key with content:write sees it. */
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

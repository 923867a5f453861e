// The public face of libs/tasks: apps import only from here.
export { TasksModule } from './tasks.module.js';
export { TasksJobsModule } from './jobs/tasks-jobs.module.js';
export { OUTPUT_KINDS, OUTPUT_OPERATIONS, OUTPUT_STATUSES, TASK_STATUSES } from './domain/task.js';
export { ApplyTaskOutputUseCase } from './application/apply-task-output.use-case.js';
export { CancelTaskUseCase } from './application/cancel-task.use-case.js';
export { CreateTaskUseCase } from './application/create-task.use-case.js';
export { GetTaskOutputUseCase } from './application/get-task-output.use-case.js';
export { GetTaskUseCase } from './application/get-task.use-case.js';
export { ListTasksUseCase } from './application/list-tasks.use-case.js';
export { RecoverTasksUseCase } from './application/recover-tasks.use-case.js';
export { RejectTaskOutputUseCase } from './application/reject-task-output.use-case.js';
export { RunTaskUseCase } from './application/run-task.use-case.js';
export type { TaskView } from './application/task-views.js';
export { GenerationError, type GenerationRequest } from './application/content-generator.port.js';
export { OpenAiContentGenerator, RESPONSE_SCHEMA } from './infrastructure/openai-content-generator.js';

// The public face of libs/tasks: apps import only from here.
export { TasksModule } from './tasks.module.js';
export { OUTPUT_KINDS, OUTPUT_OPERATIONS, OUTPUT_STATUSES, TASK_STATUSES, type Task, type TaskOutput, type TaskStatus } from './domain/task.js';
export {
  CancelTaskUseCase,
  type CreateTaskCommand,
  CreateTaskUseCase,
  DecideTaskOutputUseCase,
  GetTaskOutputUseCase,
  GetTaskUseCase,
  ListTasksUseCase,
  type OutputDetail,
  RecoverTasksUseCase,
  RUN_ATTEMPTS,
  RunTaskUseCase,
} from './application/tasks.use-cases.js';
export { taskBasicView, taskOutputView, taskView } from './application/task-views.js';
export { ContentGenerator, GenerationError, type GenerationRequest, type GenerationResult } from './application/content-generator.port.js';
export { BuiltinContentGenerator } from './infrastructure/builtin-content-generator.js';
export { OpenAiContentGenerator, RESPONSE_SCHEMA } from './infrastructure/openai-content-generator.js';

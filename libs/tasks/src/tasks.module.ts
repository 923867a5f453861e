import { Module } from '@nestjs/common';
import { AiConfig } from '#core';
import { ContentModule } from '#content';
import { ContentGenerator } from './application/content-generator.port.js';
import { TaskContent } from './application/task-content.js';
import { TaskRepository } from './application/task.repository.js';
import { ApplyTaskOutputUseCase } from './application/apply-task-output.use-case.js';
import { CancelTaskUseCase } from './application/cancel-task.use-case.js';
import { CreateTaskUseCase } from './application/create-task.use-case.js';
import { GetTaskOutputUseCase } from './application/get-task-output.use-case.js';
import { GetTaskUseCase } from './application/get-task.use-case.js';
import { ListTasksUseCase } from './application/list-tasks.use-case.js';
import { RecoverTasksUseCase } from './application/recover-tasks.use-case.js';
import { RejectTaskOutputUseCase } from './application/reject-task-output.use-case.js';
import { RunTaskUseCase } from './application/run-task.use-case.js';
import { BuiltinContentGenerator } from './infrastructure/builtin-content-generator.js';
import { OpenAiContentGenerator } from './infrastructure/openai-content-generator.js';
import { SqlTaskRepository } from './infrastructure/sql-task.repository.js';

const useCases = [
  CreateTaskUseCase,
  ListTasksUseCase,
  GetTaskUseCase,
  CancelTaskUseCase,
  GetTaskOutputUseCase,
  ApplyTaskOutputUseCase,
  RejectTaskOutputUseCase,
  RunTaskUseCase,
  RecoverTasksUseCase,
];

/** AI tasks: queued generation and updates with reviewable outputs; the model behind the ContentGenerator port. */
@Module({
  imports: [ContentModule],
  providers: [
    { provide: TaskRepository, useClass: SqlTaskRepository },
    {
      provide: ContentGenerator,
      inject: [AiConfig],
      useFactory: (ai: AiConfig) => (ai.provider === 'openai' ? new OpenAiContentGenerator(ai) : new BuiltinContentGenerator()),
    },
    TaskContent,
    ...useCases,
  ],
  exports: useCases,
})
export class TasksModule {}

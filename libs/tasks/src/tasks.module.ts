import { Module } from '@nestjs/common';
import { AppConfig } from '#core';
import { ContentModule } from '#content';
import { ContentGenerator } from './application/content-generator.port.js';
import { TaskContent } from './application/task-content.js';
import { TaskRepository } from './application/task.repository.js';
import {
  CancelTaskUseCase,
  CreateTaskUseCase,
  DecideTaskOutputUseCase,
  GetTaskOutputUseCase,
  GetTaskUseCase,
  ListTasksUseCase,
  RecoverTasksUseCase,
  RunTaskUseCase,
} from './application/tasks.use-cases.js';
import { BuiltinContentGenerator } from './infrastructure/builtin-content-generator.js';
import { OpenAiContentGenerator } from './infrastructure/openai-content-generator.js';
import { SqlTaskRepository } from './infrastructure/sql-task.repository.js';

const useCases = [CreateTaskUseCase, ListTasksUseCase, GetTaskUseCase, CancelTaskUseCase, GetTaskOutputUseCase, DecideTaskOutputUseCase, RunTaskUseCase, RecoverTasksUseCase];

/** AI tasks: queued generation and updates with reviewable outputs; the model behind the ContentGenerator port. */
@Module({
  imports: [ContentModule],
  providers: [
    { provide: TaskRepository, useClass: SqlTaskRepository },
    {
      provide: ContentGenerator,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => (config.ai.provider === 'openai' ? new OpenAiContentGenerator(config) : new BuiltinContentGenerator()),
    },
    TaskContent,
    ...useCases,
  ],
  exports: useCases,
})
export class TasksModule {}

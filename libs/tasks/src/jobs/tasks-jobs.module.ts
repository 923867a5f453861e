import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks.module.js';
import { RecoverTasksProcessor } from './recover-tasks.processor.js';
import { RunTaskProcessor } from './run-task.processor.js';

/** The tasks' job processors: a task's run, and the periodic recovery of stalled tasks. For processes that run jobs. */
@Module({
  imports: [TasksModule],
  providers: [RunTaskProcessor, RecoverTasksProcessor],
})
export class TasksJobsModule {}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OUTPUT_KINDS, OUTPUT_OPERATIONS, OUTPUT_STATUSES, TASK_STATUSES } from '#tasks';

export class TaskBasicResponse {
  @ApiProperty({ example: 'tsk_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'Generated once the task runs, when none was given' })
  title: string | null;

  @ApiProperty({ enum: TASK_STATUSES, description: 'queued → running → completed | failed; cancelled' })
  status: string;
}

export class TaskOutputResponse {
  @ApiProperty({ example: 'tout_01JD3Q7W6S1X0Y2Z3A4B5C6D7E' })
  id: string;

  @ApiProperty({ enum: OUTPUT_KINDS })
  kind: string;

  @ApiProperty({ enum: OUTPUT_OPERATIONS })
  operation: string;

  @ApiProperty({ enum: OUTPUT_STATUSES })
  status: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true, description: 'The article updated, or created once applied' })
  targetArticleId: string | null;

  @ApiProperty({ type: String, nullable: true })
  targetCollectionId: string | null;

  @ApiProperty({ type: String, nullable: true })
  targetSectionId: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  appliedAt: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why applying it failed (autoApply)' })
  error: string | null;
}

export class TaskResponse extends TaskBasicResponse {
  @ApiProperty()
  instruction: string;

  @ApiProperty({ type: String, nullable: true })
  targetArticleId: string | null;

  @ApiProperty({ type: String, nullable: true })
  targetCollectionId: string | null;

  @ApiProperty({ type: String, nullable: true })
  targetSectionId: string | null;

  @ApiProperty()
  autoApply: boolean;

  @ApiProperty({ type: String, nullable: true, description: '`builtin` or `openai:<model>`' })
  generator: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed' })
  error: string | null;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  startedAt: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  finishedAt: string | null;

  @ApiPropertyOptional({ type: [TaskOutputResponse], description: 'Only for keys with content:write' })
  outputs?: TaskOutputResponse[];
}

export class TaskPage {
  @ApiProperty({ type: [TaskBasicResponse] })
  items: TaskBasicResponse[];

  @ApiProperty()
  limit: number;

  @ApiProperty()
  offset: number;

  @ApiProperty()
  total: number;
}

export class TaskOutputDetailResponse extends TaskOutputResponse {
  @ApiProperty({ description: 'The proposed content: the article body, a collection subtitle, or "" for a section' })
  markdown: string;

  @ApiProperty({ type: String, nullable: true, description: 'Updates: unified diff (jsdiff) of `# title` + body, current against proposed' })
  diff: string | null;
}

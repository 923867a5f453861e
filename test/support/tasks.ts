/** Task resources as the API returns them to a content:write key. */
export interface TaskOutput {
  id: string;
  kind: string;
  operation: string;
  status: string;
  title: string;
  targetArticleId: string | null;
  targetCollectionId: string | null;
  targetSectionId: string | null;
  appliedAt: string | null;
  error: string | null;
}

export interface Task {
  id: string;
  title: string | null;
  status: string;
  instruction: string;
  targetArticleId: string | null;
  targetCollectionId: string | null;
  targetSectionId: string | null;
  autoApply: boolean;
  generator: string | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  outputs: TaskOutput[];
}

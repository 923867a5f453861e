import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { JobQueue } from '../jobs/job-queue.port.js';
import { withTimeout } from '../util/with-timeout.js';

export interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly database: 'ok' | 'unavailable'; readonly queue: 'ok' | 'unavailable' };
}

/** Whether the database and the job queue answer, each within 2 s. */
@Injectable()
export class CheckReadinessUseCase {
  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
  ) {}

  async execute(): Promise<Readiness> {
    const [database, queue] = await Promise.all([
      withTimeout(this.database.manager.query('SELECT 1'), 2_000, 'database timeout').then(ok, unavailable),
      withTimeout(this.jobs.ping(), 2_000, 'queue timeout').then(ok, unavailable),
    ]);
    return { ready: database === 'ok' && queue === 'ok', checks: { database, queue } };
  }
}

const ok = (): 'ok' => 'ok';
const unavailable = (): 'unavailable' => 'unavailable';

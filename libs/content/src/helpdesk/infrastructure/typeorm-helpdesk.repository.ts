import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { HelpdeskRepository } from '../application/helpdesk.repository.js';
import { Helpdesk } from '../domain/helpdesk.js';
import { HelpdeskOrmEntity } from './helpdesk.orm-entity.js';

@Injectable()
export class TypeOrmHelpdeskRepository extends HelpdeskRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  private get repo() {
    return this.tx.manager.getRepository(HelpdeskOrmEntity);
  }

  async find(options: { forUpdate?: boolean } = {}): Promise<Helpdesk | null> {
    const [row] = await this.repo.find({ take: 1, ...(options.forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
    return row ? new Helpdesk({ ...row }) : null;
  }

  async insertIfAbsent(helpdesk: Helpdesk): Promise<boolean> {
    const s = helpdesk.snapshot();
    const rows: unknown[] = await this.tx.manager.query(
      `INSERT INTO helpdesks (id, name, default_language, languages, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ON CONSTRAINT helpdesks_singleton_key DO NOTHING RETURNING id`,
      [s.id, s.name, s.defaultLanguage, s.languages, s.createdAt, s.updatedAt],
    );
    return rows.length > 0;
  }

  async update(helpdesk: Helpdesk): Promise<void> {
    const s = helpdesk.snapshot();
    await this.repo.update({ id: s.id }, { name: s.name, languages: s.languages, updatedAt: s.updatedAt });
  }
}

import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#core';
import { HelpdeskRepository } from '../application/helpdesk.repository.js';
import { Helpdesk, type HelpdeskProps } from '../domain/helpdesk.js';

const HELPDESK_COLUMNS = `h.id, h.name, h.default_language AS "defaultLanguage", h.languages, h.logo_url AS "logoUrl", h.accent_color AS "accentColor",
  h.footer_links AS "footerLinks", h.created_at AS "createdAt", h.updated_at AS "updatedAt"`;

@Injectable()
export class SqlHelpdeskRepository extends HelpdeskRepository {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(options: { forUpdate?: boolean } = {}): Promise<Helpdesk | null> {
    const [row] = await this.tx.query<HelpdeskProps>(`SELECT ${HELPDESK_COLUMNS} FROM helpdesks h LIMIT 1${options.forUpdate ? ' FOR UPDATE' : ''}`);
    return row ? new Helpdesk(row) : null;
  }

  async insertIfAbsent(helpdesk: Helpdesk): Promise<boolean> {
    const s = helpdesk.snapshot();
    const rows = await this.tx.query<{ id: string }>(
      `INSERT INTO helpdesks (id, name, default_language, languages, logo_url, accent_color, footer_links, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT ON CONSTRAINT helpdesks_singleton_key DO NOTHING RETURNING id`,
      [s.id, s.name, s.defaultLanguage, s.languages, s.logoUrl, s.accentColor, JSON.stringify(s.footerLinks), s.createdAt, s.updatedAt],
    );
    return rows.length > 0;
  }

  async update(helpdesk: Helpdesk): Promise<void> {
    const s = helpdesk.snapshot();
    await this.tx.query('UPDATE helpdesks SET name = $2, languages = $3, logo_url = $4, accent_color = $5, footer_links = $6, updated_at = $7 WHERE id = $1', [
      s.id,
      s.name,
      s.languages,
      s.logoUrl,
      s.accentColor,
      JSON.stringify(s.footerLinks),
      s.updatedAt,
    ]);
  }
}

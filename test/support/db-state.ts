import pg from 'pg';

/** Tables whose rows change beside the requests under test (migrations; key usage, idempotency records). */
const VOLATILE_TABLES = new Set(['migrations', 'api_keys', 'idempotency_keys']);

/**
 * A fingerprint of everything stored in a test database, read in one statement: per table, its row count and an
 * MD5 of every row version's place and creating transaction (`ctid`, `xmin`). PostgreSQL writes a new row version
 * for every insert and update, so two equal fingerprints mean no row was inserted, changed or deleted in between;
 * and reading only the row headers costs the same with large (TOASTed) bodies in the rows.
 */
export class DatabaseState {
  private constructor(
    private readonly client: pg.Client,
    private readonly sql: string,
  ) {}

  static async open(databaseUrl: string, options: { exclude?: readonly string[] } = {}): Promise<DatabaseState> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const excluded = new Set([...VOLATILE_TABLES, ...(options.exclude ?? [])]);
    const { rows } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
    );
    const tables = rows.map((row) => row.name).filter((name) => !excluded.has(name));
    const columns = tables.map(
      (name) => `'${name}', (SELECT count(*) || ':' || md5(coalesce(string_agg(ctid::text || xmin::text, ',' ORDER BY ctid), '')) FROM "${name}")`,
    );
    return new DatabaseState(client, `SELECT json_build_object(${columns.join(', ')}) AS state`);
  }

  /** `{ table: "<rows>:<md5>" }` of every table but the volatile ones. */
  async snapshot(): Promise<Record<string, string>> {
    const { rows } = await this.client.query<{ state: Record<string, string> }>(this.sql);
    return rows[0].state;
  }

  /** The tables whose content differs between two snapshots. */
  static changed(before: Record<string, string>, after: Record<string, string>): string[] {
    return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

import { createServer } from 'node:http';
import pg from 'pg';

/**
 * The baseline of `npm run bench`: the least a server can do to answer GET /v1/collections?page_size=100 with
 * the same rows and JSON shape (keyset query + translations query, no framework, no auth).
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

/** GET /v1/articles?page_size=N: published articles, newest first, with their HTML. */
async function articles(size: number): Promise<string> {
  const { rows } = await pool.query(
    `SELECT a.id, a.slug, a.section_id, a.collection_id, a.status, a.published_at, a.created_at, a.updated_at,
            a.keywords, a.meta_description, a.og_image, r.title, r.content_html
     FROM articles a JOIN article_revisions r ON r.id = a.current_revision_id
     WHERE a.status = 'published' ORDER BY a.created_at DESC, a.id DESC LIMIT $1`,
    [size + 1],
  );
  const results = rows.slice(0, size).map((r) => ({
    id: r.id,
    title: r.title,
    slug: r.slug,
    url: `http://localhost/articles/${r.slug}`,
    sectionId: r.section_id,
    collectionId: r.collection_id,
    status: r.status,
    publishedAt: r.published_at?.toISOString() ?? null,
    keywords: r.keywords,
    metaDescription: r.meta_description,
    ogImage: r.og_image,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    contentHtml: r.content_html,
  }));
  return JSON.stringify({ results, has_more: rows.length > size, next_cursor: rows.length > size ? 'x' : null });
}

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/v1/articles') {
      const body = await articles(Math.min(100, Math.max(1, Number(url.searchParams.get('page_size') ?? 20))));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
      return;
    }
    const size = Math.min(100, Math.max(1, Number(url.searchParams.get('page_size') ?? 20)));
    const { rows } = await pool.query(
      `SELECT id, helpdesk_id, section_id, parent_collection_id, title, subtitle, short_id, created_at, updated_at
       FROM collections ORDER BY created_at DESC, id DESC LIMIT $1`,
      [size + 1],
    );
    const page = rows.slice(0, size);
    const translations = await pool.query(
      'SELECT id, collection_id, language, title, subtitle, status, created_at, updated_at FROM collection_translations WHERE collection_id = ANY($1) ORDER BY language',
      [page.map((r) => r.id)],
    );
    const results = page.map((r) => ({
      id: r.id,
      helpdeskId: r.helpdesk_id,
      sectionId: r.section_id,
      parentCollectionId: r.parent_collection_id,
      title: r.title,
      subtitle: r.subtitle,
      shortId: r.short_id,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      translations: translations.rows
        .filter((t) => t.collection_id === r.id)
        .map((t) => ({ id: t.id, collectionId: t.collection_id, language: t.language, title: t.title, subtitle: t.subtitle, status: t.status, createdAt: t.created_at.toISOString(), updatedAt: t.updated_at.toISOString() })),
    }));
    const body = JSON.stringify({ results, has_more: rows.length > size, next_cursor: rows.length > size ? 'x' : null });
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening on ${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

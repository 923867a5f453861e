import type { SearchPage } from '#content';
import { Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { languageLinks } from './parts.js';

/**
 * `/search?q=`: the query kept in the search box, results with their highlighted snippets (HTML from the search use
 * case: text escaped there, matches in <mark>), pages, and an empty state that offers somewhere to go. Everything that
 * depends on the query is inside #search-results, which the page's script swaps as the reader types.
 */
export function SearchView({ context, page }: { context: PageContext; page: SearchPage }) {
  const { t, urls, branding } = context;
  const query = page.query.trim();
  const languages = languageLinks(context, (language) => urls.search(query || undefined, 1, language));
  const heading = query ? t.resultsFor(query) : t.searchTitle;
  return (
    <Layout context={context} languages={languages} query={query} meta={{ title: `${heading} | ${branding.name}`, noindex: true }}>
      <div id="search-results" class="results" lang={context.uiLang}>
        <h1>{heading}</h1>
        {query === '' ? (
          <p class="empty">{t.emptyQuery}</p>
        ) : page.results.length === 0 ? (
          <div class="empty">
            <p>
              <strong>{t.noResults(query)}</strong>
            </p>
            <p>{t.noResultsHelp}</p>
            <p>
              <a href={urls.home()}>{t.browseTopics}</a>
            </p>
          </div>
        ) : (
          <ul class="article-list">
            {page.results.map((result) => (
              <li lang={langOf(context, result.language) ?? (context.uiLang ? context.locale.requested : undefined)}>
                <a href={urls.article(result.slug)}>{result.title}</a>
                <p dangerouslySetInnerHTML={{ __html: result.snippet }} />
              </li>
            ))}
          </ul>
        )}
        {page.page > 1 || page.hasNextPage ? (
          <nav class="pagination" aria-label={t.pageNumber(page.page)}>
            {page.page > 1 ? (
              <a rel="prev" href={urls.search(query, page.page - 1)}>
                {t.previousPage}
              </a>
            ) : (
              <span />
            )}
            <span aria-current="page">{t.pageNumber(page.page)}</span>
            {page.hasNextPage ? (
              <a rel="next" href={urls.search(query, page.page + 1)}>
                {t.nextPage}
              </a>
            ) : null}
          </nav>
        ) : null}
      </div>
    </Layout>
  );
}

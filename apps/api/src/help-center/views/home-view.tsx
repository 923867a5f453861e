import type { HomePage } from '#content';
import { Layout } from './layout.js';
import type { PageContext } from './page-context.js';
import { langOf } from './page-context.js';
import { alternates, ArticleList, CollectionCards, languageLinks } from './parts.js';

/** `/`: the sections in order with their collections (nested, with article counts), then recently updated articles. */
export function HomeView({ context, page }: { context: PageContext; page: HomePage }) {
  const { t, urls, branding } = context;
  const languages = languageLinks(context, (language) => urls.home(language));
  const canonical = urls.absolute(urls.home());
  return (
    <Layout
      context={context}
      languages={languages}
      meta={{
        title: branding.name,
        description: `${branding.name}: ${t.homeLead}`,
        canonical,
        alternates: alternates(context, languages),
        openGraph: { type: 'website', title: branding.name },
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'WebSite',
            name: branding.name,
            url: canonical,
            inLanguage: context.locale.requested,
            potentialAction: { '@type': 'SearchAction', target: `${urls.absolute(urls.search())}?q={search_term_string}`, 'query-input': 'required name=search_term_string' },
          },
        ],
      }}
    >
      <h1 lang={context.uiLang}>{t.homeHeading}</h1>
      <p class="lead" lang={context.uiLang}>
        {t.homeLead}
      </p>
      {page.sections.length === 0 && page.recentArticles.length === 0 ? (
        <p class="empty" lang={context.uiLang}>
          {t.nothingPublished}
        </p>
      ) : null}
      {page.sections.map(({ section, collections }) => (
        <section>
          <h2 lang={langOf(context, section.language)}>
            <a href={urls.section(section.id)}>{section.name}</a>
          </h2>
          <CollectionCards context={context} collections={collections} />
        </section>
      ))}
      {page.recentArticles.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.recentArticles}</h2>
          <ArticleList context={context} articles={page.recentArticles} />
        </section>
      ) : null}
    </Layout>
  );
}

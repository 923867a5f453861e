import type { SectionPage } from '#content';
import { Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { alternates, ArticleList, Breadcrumbs, breadcrumbList, CollectionCards, languageLinks } from './parts.js';

/** `/sections/{id}`: the section's collections (nested) and the articles placed in it outside any collection. */
export function SectionView({ context, page }: { context: PageContext; page: SectionPage }) {
  const { t, urls, branding } = context;
  const { section } = page;
  const languages = languageLinks(context, (language) => urls.section(section.id, language));
  const path = urls.section(section.id);
  const current = { name: section.name, language: section.language };
  return (
    <Layout
      context={context}
      languages={languages}
      meta={{
        title: `${section.name} | ${branding.name}`,
        description: `${section.name}: ${branding.name}`,
        canonical: urls.absolute(path),
        alternates: alternates(context, languages),
        openGraph: { type: 'website', title: section.name },
        jsonLd: [breadcrumbList(context, [], { name: section.name, path })],
      }}
    >
      <Breadcrumbs context={context} crumbs={[]} current={current} />
      <h1 lang={langOf(context, section.language)}>{section.name}</h1>
      {page.collections.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.collections}</h2>
          <CollectionCards context={context} collections={page.collections} />
        </section>
      ) : null}
      {page.articles.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.articles}</h2>
          <ArticleList context={context} articles={page.articles} />
        </section>
      ) : null}
      {page.collections.length === 0 && page.articles.length === 0 ? (
        <p class="empty" lang={context.uiLang}>
          {t.emptyCollection}
        </p>
      ) : null}
    </Layout>
  );
}

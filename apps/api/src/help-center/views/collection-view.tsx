import type { CollectionPage } from '#content';
import { Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { alternates, ArticleList, Breadcrumbs, breadcrumbList, CollectionCards, languageLinks } from './parts.js';

/** `/collections/{shortId}`: breadcrumbs, the collection's description, its subcollections and its articles. */
export function CollectionView({ context, page }: { context: PageContext; page: CollectionPage }) {
  const { t, urls, branding } = context;
  const { collection } = page;
  const languages = languageLinks(context, (language) => urls.collection(collection.shortId, language));
  const path = urls.collection(collection.shortId);
  const lang = langOf(context, collection.language);
  return (
    <Layout
      context={context}
      languages={languages}
      meta={{
        title: `${collection.title} | ${branding.name}`,
        description: collection.description ?? `${collection.title}: ${branding.name}`,
        canonical: urls.absolute(path),
        alternates: alternates(context, languages),
        openGraph: { type: 'website', title: collection.title },
        jsonLd: [breadcrumbList(context, page.breadcrumbs, { name: collection.title, path })],
      }}
    >
      <Breadcrumbs context={context} crumbs={page.breadcrumbs} current={{ name: collection.title, language: collection.language }} />
      <h1 lang={lang}>{collection.title}</h1>
      {collection.description ? (
        <p class="lead" lang={lang}>
          {collection.description}
        </p>
      ) : null}
      {page.subcollections.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.collections}</h2>
          <CollectionCards context={context} collections={page.subcollections} />
        </section>
      ) : null}
      {page.articles.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.articles}</h2>
          <ArticleList context={context} articles={page.articles} />
        </section>
      ) : page.subcollections.length === 0 ? (
        <p class="empty" lang={context.uiLang}>
          {t.emptyCollection}
        </p>
      ) : null}
    </Layout>
  );
}

import type { CollectionPage } from '#content';
import { Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { alternates, Breadcrumbs, breadcrumbList, Contents, languageLinks } from './parts.js';

/** `/collections/{shortId}`: breadcrumbs, the collection's description, its subcollections and its articles. */
export function CollectionView({ context, page }: { context: PageContext; page: CollectionPage }) {
  const { urls, branding } = context;
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
      <Contents context={context} collections={page.subcollections} articles={page.articles} />
    </Layout>
  );
}

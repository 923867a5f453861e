import type { SectionPage } from '#content';
import { Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { alternates, Breadcrumbs, breadcrumbList, Contents, languageLinks } from './parts.js';

/** `/sections/{id}`: the section's collections (nested) and the articles placed in it outside any collection. */
export function SectionView({ context, page }: { context: PageContext; page: SectionPage }) {
  const { urls, branding } = context;
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
      <Contents context={context} collections={page.collections} articles={page.articles} />
    </Layout>
  );
}

import type { ArticleLink, Breadcrumb, CollectionLink, CollectionNode } from '#content';
import type { LanguageLink } from './layout.js';
import { langOf, type PageContext } from './page-context.js';

/** The same page in every enabled language (default first), as paths: the language switcher's links. */
export function languageLinks(context: PageContext, pathIn: (language: string) => string, languages = context.locale.languages): LanguageLink[] {
  return languages.map((language) => ({ language, href: pathIn(language) }));
}

/** The same links as absolute URLs: the hreflang alternates. */
export function alternates(context: PageContext, links: readonly LanguageLink[]): LanguageLink[] {
  return links.map((link) => ({ language: link.language, href: context.urls.absolute(link.href) }));
}

export function crumbName(crumb: Breadcrumb): { name: string; language: string } {
  return crumb.kind === 'section' ? { name: crumb.section.name, language: crumb.section.language } : { name: crumb.collection.title, language: crumb.collection.language };
}

export function crumbPath(context: PageContext, crumb: Breadcrumb): string {
  return crumb.kind === 'section' ? context.urls.section(crumb.section.id) : context.urls.collection(crumb.collection.shortId);
}

/** Home, then the section and collections above the page, then the page itself (not a link). */
export function Breadcrumbs({ context, crumbs, current }: { context: PageContext; crumbs: readonly Breadcrumb[]; current: { name: string; language: string } }) {
  const { t, urls, uiLang } = context;
  return (
    <nav id="breadcrumbs" class="breadcrumbs" aria-label={t.breadcrumb}>
      <ol>
        <li lang={uiLang}>
          <a href={urls.home()}>{t.home}</a>
        </li>
        {crumbs.map((crumb) => {
          const { name, language } = crumbName(crumb);
          return (
            <li lang={langOf(context, language)}>
              <a href={crumbPath(context, crumb)}>{name}</a>
            </li>
          );
        })}
        <li aria-current="page" lang={langOf(context, current.language)}>
          {current.name}
        </li>
      </ol>
    </nav>
  );
}

/** The schema.org BreadcrumbList of the same trail (absolute URLs). */
export function breadcrumbList(context: PageContext, crumbs: readonly Breadcrumb[], current: { name: string; path: string }): object {
  const items = [
    { name: context.t.home, path: context.urls.home() },
    ...crumbs.map((crumb) => ({ name: crumbName(crumb).name, path: crumbPath(context, crumb) })),
    current,
  ];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({ '@type': 'ListItem', position: index + 1, name: item.name, item: context.urls.absolute(item.path) })),
  };
}

export function ArticleList({ context, articles }: { context: PageContext; articles: readonly ArticleLink[] }) {
  return (
    <ul class="article-list">
      {articles.map((article) => (
        <li>
          <a href={context.urls.article(article.slug)} lang={langOf(context, article.language)}>
            {article.title}
          </a>
          {article.summary ? <p lang={langOf(context, article.language)}>{article.summary}</p> : null}
        </li>
      ))}
    </ul>
  );
}

function NestedCollections({ context, nodes }: { context: PageContext; nodes: readonly CollectionNode[] }) {
  return (
    <ul>
      {nodes.map((node) => (
        <li>
          <a href={context.urls.collection(node.shortId)} lang={langOf(context, node.language)}>
            {node.title}
          </a>{' '}
          <span class="count" lang={context.uiLang}>
            ({context.t.articleCount(node.articleCount)})
          </span>
          {node.children.length > 0 ? <NestedCollections context={context} nodes={node.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** Collections as cards: title (the link), description, article count, and the collections nested in them. */
export function CollectionCards({ context, collections, headingLevel = 3 }: { context: PageContext; collections: ReadonlyArray<CollectionLink | CollectionNode>; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul class="cards">
      {collections.map((collection) => (
        <li class="card">
          <Heading lang={langOf(context, collection.language)}>
            <a href={context.urls.collection(collection.shortId)}>{collection.title}</a>
          </Heading>
          {collection.description ? <p lang={langOf(context, collection.language)}>{collection.description}</p> : null}
          <p class="count" lang={context.uiLang}>
            {context.t.articleCount(collection.articleCount)}
          </p>
          {'children' in collection && collection.children.length > 0 ? <NestedCollections context={context} nodes={collection.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/** What a section or collection holds: its collections, then its articles, or a helpful line when it holds neither. */
export function Contents({
  context,
  collections,
  articles,
}: {
  context: PageContext;
  collections: ReadonlyArray<CollectionLink | CollectionNode>;
  articles: readonly ArticleLink[];
}) {
  const { t } = context;
  return (
    <>
      {collections.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.collections}</h2>
          <CollectionCards context={context} collections={collections} />
        </section>
      ) : null}
      {articles.length > 0 ? (
        <section>
          <h2 lang={context.uiLang}>{t.articles}</h2>
          <ArticleList context={context} articles={articles} />
        </section>
      ) : null}
      {collections.length === 0 && articles.length === 0 ? (
        <p class="empty" lang={context.uiLang}>
          {t.emptyCollection}
        </p>
      ) : null}
    </>
  );
}

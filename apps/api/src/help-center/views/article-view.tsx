import type { ArticleLink, ArticlePage } from '#content';
import { formatDate, languageName } from '../i18n/ui-strings.js';
import { isSafeLink, Layout } from './layout.js';
import { langOf, type PageContext } from './page-context.js';
import { alternates, ArticleList, Breadcrumbs, breadcrumbList, languageLinks } from './parts.js';

/** Stored with a yes or a no that came without a comment (the feedback text is required). */
export const EMPTY_FEEDBACK_COMMENT = '(no comment)';

function Pager({ context, previous, next }: { context: PageContext; previous: ArticleLink | null; next: ArticleLink | null }) {
  if (!previous && !next) return null;
  const { t, urls } = context;
  return (
    <nav class="pager" aria-label={t.moreInCollection} lang={context.uiLang}>
      {previous ? (
        <a class="previous" rel="prev" href={urls.article(previous.slug)}>
          <small>{t.previous}</small>
          <span lang={langOf(context, previous.language)}>{previous.title}</span>
        </a>
      ) : null}
      {next ? (
        <a class="next" rel="next" href={urls.article(next.slug)}>
          <small>{t.next}</small>
          <span lang={langOf(context, next.language)}>{next.title}</span>
        </a>
      ) : null}
    </nav>
  );
}

/**
 * "Was this helpful?": a plain form that posts itself (303 back here with a thank-you) and that the page's script
 * turns into a JSON post to the public feedback endpoint, without a reload. Its texts for the script ride on data
 * attributes, in the page's language.
 */
function Feedback({ context, page, sent }: { context: PageContext; page: ArticlePage; sent: boolean }) {
  const { t, urls } = context;
  const { article } = page;
  return (
    <section id="feedback" class="feedback" lang={context.uiLang}>
      <h2>{t.feedbackQuestion}</h2>
      {sent ? (
        <p id="feedback-thanks" class="thanks" role="status">
          {t.feedbackThanks}
        </p>
      ) : (
        <form
          id="feedback-form"
          method="post"
          action={urls.feedbackForm(article.slug)}
          data-endpoint={urls.feedbackApi(article.id)}
          data-thanks={t.feedbackThanks}
          data-failed={t.feedbackFailed}
          data-invalid={t.feedbackInvalid}
          data-rate-limited={t.feedbackRateLimited}
          data-empty-comment={EMPTY_FEEDBACK_COMMENT}
        >
          <input type="hidden" name="article" value={article.id} />
          <label for="feedback-comment">
            {t.feedbackComment} <span class="hint">{t.optional}</span>
          </label>
          <textarea id="feedback-comment" name="feedback" rows={3} maxlength={5000} />
          <label for="feedback-email">
            {t.feedbackEmail} <span class="hint">{t.optional}</span>
          </label>
          <input id="feedback-email" type="email" name="email" autocomplete="email" maxlength={254} />
          <p class="hint">{t.feedbackEmailHint}</p>
          <div class="feedback-buttons">
            <button type="submit" name="type" value="positive">
              {t.feedbackYes}
            </button>
            <button type="submit" name="type" value="negative" class="secondary">
              {t.feedbackNo}
            </button>
          </div>
          <p class="feedback-status" role="status" />
        </form>
      )}
    </section>
  );
}

/**
 * `/articles/{slug}`: breadcrumbs, title, last updated, a table of contents from the headings, the body (the content
 * format's HTML, safe by construction), previous and next in the collection, related articles and the feedback form.
 * Shown in the default language when the requested one has no translation, said so above it, the content marked
 * with its own `lang`.
 */
export function ArticleView({ context, page, feedbackSent }: { context: PageContext; page: ArticlePage; feedbackSent: boolean }) {
  const { t, urls, branding, locale } = context;
  const { article } = page;
  const lang = langOf(context, article.language);
  // Interface text inside the article element: in the page's language, also when the article's differs.
  const uiLang = lang !== undefined ? t.language : context.uiLang;
  const path = urls.article(article.slug);
  const languages = languageLinks(context, (language) => urls.article(article.slug, language));
  const available = languages.filter((link) => page.availableLanguages.includes(link.language));
  // A fallback page repeats another language's text: its canonical URL is that language's page.
  const canonical = urls.absolute(urls.article(article.slug, article.language));
  const description = article.metaDescription || article.summary || null;
  const ogImage = article.ogImage && isSafeLink(article.ogImage, /^https?:/i) ? article.ogImage : null;
  const logo = branding.logoUrl && isSafeLink(branding.logoUrl, /^https?:/i) ? branding.logoUrl : null;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: article.title,
    ...(description ? { description } : {}),
    ...(article.keywords ? { keywords: article.keywords } : {}),
    ...(ogImage ? { image: [ogImage] } : {}),
    inLanguage: article.language,
    datePublished: article.publishedAt.toISOString(),
    dateModified: article.updatedAt.toISOString(),
    url: canonical,
    mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
    publisher: { '@type': 'Organization', name: branding.name, ...(logo ? { logo: { '@type': 'ImageObject', url: logo } } : {}) },
  };
  return (
    <Layout
      context={context}
      languages={languages}
      meta={{
        title: `${article.title} | ${branding.name}`,
        description,
        keywords: article.keywords,
        canonical,
        alternates: alternates(context, available),
        openGraph: { type: 'article', title: article.title, image: ogImage, publishedTime: article.publishedAt, modifiedTime: article.updatedAt },
        jsonLd: [jsonLd, breadcrumbList(context, page.breadcrumbs, { name: article.title, path })],
      }}
    >
      <Breadcrumbs context={context} crumbs={page.breadcrumbs} current={{ name: article.title, language: article.language }} />
      {article.fallback ? (
        <p class="notice" role="note" lang={context.uiLang}>
          {t.fallbackNotice(languageName(locale.requested), languageName(article.language))}
        </p>
      ) : null}
      <article id="article" lang={lang}>
        <h1>{article.title}</h1>
        <p class="meta" lang={uiLang}>
          {t.lastUpdated} <time datetime={article.updatedAt.toISOString()}>{formatDate(article.updatedAt, locale.requested)}</time>
        </p>
        <div class="article-layout">
          {page.toc.length > 0 ? (
            <aside>
              <nav id="toc" class="toc" aria-label={t.contents} lang={uiLang}>
                <h2>{t.contents}</h2>
                <ol>
                  {page.toc.map((entry) => (
                    <li class={`level-${entry.level}`} lang={lang}>
                      <a href={`#${entry.id}`}>{entry.text}</a>
                    </li>
                  ))}
                </ol>
              </nav>
            </aside>
          ) : null}
          <div class="article-body" dangerouslySetInnerHTML={{ __html: article.html }} />
        </div>
      </article>
      <Pager context={context} previous={page.previous} next={page.next} />
      {page.related.length > 0 ? (
        <section id="related">
          <h2 lang={context.uiLang}>{t.related}</h2>
          <ArticleList context={context} articles={page.related} />
        </section>
      ) : null}
      <Feedback context={context} page={page} sent={feedbackSent} />
    </Layout>
  );
}

/**
 * The words of the help center's pages around the content, per interface language. A page in a language without its
 * own strings (say `ja`) uses the strings of its base language (`pt` for `pt-BR`) or English; the content keeps its own
 * language either way.
 */
export interface UiStrings {
  /** The language these strings are written in. */
  readonly language: string;
  readonly skipToContent: string;
  readonly searchLabel: string;
  readonly searchPlaceholder: string;
  readonly searchButton: string;
  readonly languageNav: string;
  readonly breadcrumb: string;
  readonly home: string;
  readonly homeHeading: string;
  readonly homeLead: string;
  readonly recentArticles: string;
  readonly nothingPublished: string;
  readonly collections: string;
  readonly articles: string;
  readonly articleCount: (count: number) => string;
  readonly emptyCollection: string;
  readonly contents: string;
  readonly lastUpdated: string;
  readonly related: string;
  readonly moreInCollection: string;
  readonly previous: string;
  readonly next: string;
  readonly fallbackNotice: (requested: string, shown: string) => string;
  readonly feedbackQuestion: string;
  readonly feedbackYes: string;
  readonly feedbackNo: string;
  readonly feedbackComment: string;
  readonly feedbackEmail: string;
  readonly optional: string;
  readonly feedbackEmailHint: string;
  readonly feedbackThanks: string;
  readonly feedbackFailed: string;
  readonly feedbackInvalid: string;
  /** `{seconds}` is replaced by the wait. */
  readonly feedbackRateLimited: string;
  readonly searchTitle: string;
  readonly resultsFor: (query: string) => string;
  readonly noResults: (query: string) => string;
  readonly noResultsHelp: string;
  readonly emptyQuery: string;
  readonly browseTopics: string;
  readonly previousPage: string;
  readonly nextPage: string;
  readonly pageNumber: (page: number) => string;
  readonly notFoundTitle: string;
  readonly notFoundHeading: string;
  readonly notFoundText: string;
  readonly rateLimitedTitle: string;
  readonly rateLimitedText: (seconds: number) => string;
  readonly invalidTitle: string;
  readonly invalidText: string;
  readonly errorTitle: string;
  readonly errorText: string;
  readonly backToArticle: string;
  readonly goHome: string;
  readonly feed: string;
  readonly published: string;
}

const plural = (language: string, one: string, other: string) => {
  const rules = new Intl.PluralRules(language);
  return (count: number) => (rules.select(count) === 'one' ? one : other).replace('{n}', new Intl.NumberFormat(language).format(count));
};

const en: UiStrings = {
  language: 'en',
  skipToContent: 'Skip to content',
  searchLabel: 'Search the help center',
  searchPlaceholder: 'Search articles…',
  searchButton: 'Search',
  languageNav: 'Language',
  breadcrumb: 'Breadcrumb',
  home: 'Home',
  homeHeading: 'How can we help?',
  homeLead: 'Search the articles or browse the topics below.',
  recentArticles: 'Recently updated',
  nothingPublished: 'No articles have been published yet.',
  collections: 'Topics',
  articles: 'Articles',
  articleCount: plural('en', '{n} article', '{n} articles'),
  emptyCollection: 'There are no articles here yet.',
  contents: 'Contents',
  lastUpdated: 'Last updated',
  related: 'Related articles',
  moreInCollection: 'More in this collection',
  previous: 'Previous',
  next: 'Next',
  fallbackNotice: (requested, shown) => `This article is not available in ${requested} yet; showing ${shown}.`,
  feedbackQuestion: 'Was this article helpful?',
  feedbackYes: 'Yes, it helped',
  feedbackNo: 'No, it did not',
  feedbackComment: 'Comment',
  feedbackEmail: 'Email',
  optional: '(optional)',
  feedbackEmailHint: 'Only if you would like us to get back to you.',
  feedbackThanks: 'Thank you for your feedback!',
  feedbackFailed: 'Your feedback could not be sent. Please try again.',
  feedbackInvalid: 'Please check your comment and email address, then try again.',
  feedbackRateLimited: 'You have sent a lot of feedback in a short time. Please try again in {seconds} seconds.',
  searchTitle: 'Search',
  resultsFor: (query) => `Results for “${query}”`,
  noResults: (query) => `No articles match “${query}”.`,
  noResultsHelp: 'Check the spelling, try fewer or more general words, or browse the topics.',
  emptyQuery: 'Type a few words in the search box to find articles.',
  browseTopics: 'Browse all topics',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageNumber: (page) => `Page ${page}`,
  notFoundTitle: 'Page not found',
  notFoundHeading: 'We couldn’t find that page',
  notFoundText: 'The page may have moved or is no longer available. Try searching, or start again from the home page.',
  rateLimitedTitle: 'Too many requests',
  rateLimitedText: (seconds) => `You have sent a lot in a short time. Please wait ${seconds} seconds, then try again.`,
  invalidTitle: 'Something was not right',
  invalidText: 'We could not use what was sent. Please go back, check it and try again.',
  errorTitle: 'Something went wrong',
  errorText: 'Sorry, this page could not be shown just now. Please try again in a moment.',
  backToArticle: 'Back to the article',
  goHome: 'Go to the home page',
  feed: 'Recently published (Atom feed)',
  published: 'Published',
};

const fr: UiStrings = {
  language: 'fr',
  skipToContent: 'Aller au contenu',
  searchLabel: 'Rechercher dans le centre d’aide',
  searchPlaceholder: 'Rechercher des articles…',
  searchButton: 'Rechercher',
  languageNav: 'Langue',
  breadcrumb: 'Fil d’Ariane',
  home: 'Accueil',
  homeHeading: 'Comment pouvons-nous vous aider\u202f?',
  homeLead: 'Recherchez dans les articles ou parcourez les thèmes ci-dessous.',
  recentArticles: 'Mis à jour récemment',
  nothingPublished: 'Aucun article n’a encore été publié.',
  collections: 'Thèmes',
  articles: 'Articles',
  articleCount: plural('fr', '{n} article', '{n} articles'),
  emptyCollection: 'Il n’y a pas encore d’article ici.',
  contents: 'Sommaire',
  lastUpdated: 'Dernière mise à jour',
  related: 'Articles associés',
  moreInCollection: 'Dans la même collection',
  previous: 'Précédent',
  next: 'Suivant',
  fallbackNotice: (requested, shown) => `Cet article n’est pas encore disponible en ${requested}\u202f; il est affiché en ${shown}.`,
  feedbackQuestion: 'Cet article vous a-t-il aidé\u202f?',
  feedbackYes: 'Oui, il m’a aidé',
  feedbackNo: 'Non',
  feedbackComment: 'Commentaire',
  feedbackEmail: 'E-mail',
  optional: '(facultatif)',
  feedbackEmailHint: 'Seulement si vous souhaitez une réponse.',
  feedbackThanks: 'Merci pour votre avis\u202f!',
  feedbackFailed: 'Votre avis n’a pas pu être envoyé. Veuillez réessayer.',
  feedbackInvalid: 'Vérifiez votre commentaire et votre adresse e-mail, puis réessayez.',
  feedbackRateLimited: 'Vous avez envoyé beaucoup d’avis en peu de temps. Réessayez dans {seconds} secondes.',
  searchTitle: 'Recherche',
  resultsFor: (query) => `Résultats pour «\u202f${query}\u202f»`,
  noResults: (query) => `Aucun article ne correspond à «\u202f${query}\u202f».`,
  noResultsHelp: 'Vérifiez l’orthographe, essayez des mots moins nombreux ou plus généraux, ou parcourez les thèmes.',
  emptyQuery: 'Saisissez quelques mots dans le champ de recherche pour trouver des articles.',
  browseTopics: 'Parcourir tous les thèmes',
  previousPage: 'Page précédente',
  nextPage: 'Page suivante',
  pageNumber: (page) => `Page ${page}`,
  notFoundTitle: 'Page introuvable',
  notFoundHeading: 'Nous n’avons pas trouvé cette page',
  notFoundText: 'La page a peut-être été déplacée ou n’est plus disponible. Lancez une recherche ou repartez de l’accueil.',
  rateLimitedTitle: 'Trop de requêtes',
  rateLimitedText: (seconds) => `Vous avez envoyé beaucoup de requêtes en peu de temps. Patientez ${seconds} secondes, puis réessayez.`,
  invalidTitle: 'Quelque chose n’allait pas',
  invalidText: 'Nous n’avons pas pu utiliser ce qui a été envoyé. Revenez en arrière, vérifiez et réessayez.',
  errorTitle: 'Une erreur s’est produite',
  errorText: 'Désolés, cette page ne peut pas être affichée pour le moment. Réessayez dans un instant.',
  backToArticle: 'Revenir à l’article',
  goHome: 'Aller à l’accueil',
  feed: 'Publiés récemment (flux Atom)',
  published: 'Publié',
};

const de: UiStrings = {
  language: 'de',
  skipToContent: 'Zum Inhalt springen',
  searchLabel: 'Im Hilfe-Center suchen',
  searchPlaceholder: 'Artikel suchen…',
  searchButton: 'Suchen',
  languageNav: 'Sprache',
  breadcrumb: 'Brotkrümelnavigation',
  home: 'Startseite',
  homeHeading: 'Wie können wir helfen?',
  homeLead: 'Durchsuchen Sie die Artikel oder stöbern Sie in den Themen unten.',
  recentArticles: 'Kürzlich aktualisiert',
  nothingPublished: 'Es wurden noch keine Artikel veröffentlicht.',
  collections: 'Themen',
  articles: 'Artikel',
  articleCount: plural('de', '{n} Artikel', '{n} Artikel'),
  emptyCollection: 'Hier gibt es noch keine Artikel.',
  contents: 'Inhalt',
  lastUpdated: 'Zuletzt aktualisiert',
  related: 'Verwandte Artikel',
  moreInCollection: 'Mehr in dieser Sammlung',
  previous: 'Zurück',
  next: 'Weiter',
  fallbackNotice: (requested, shown) => `Dieser Artikel ist noch nicht auf ${requested} verfügbar; angezeigt wird ${shown}.`,
  feedbackQuestion: 'War dieser Artikel hilfreich?',
  feedbackYes: 'Ja, er hat geholfen',
  feedbackNo: 'Nein',
  feedbackComment: 'Kommentar',
  feedbackEmail: 'E-Mail',
  optional: '(optional)',
  feedbackEmailHint: 'Nur wenn Sie eine Antwort wünschen.',
  feedbackThanks: 'Vielen Dank für Ihr Feedback!',
  feedbackFailed: 'Ihr Feedback konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  feedbackInvalid: 'Bitte prüfen Sie Kommentar und E-Mail-Adresse und versuchen Sie es erneut.',
  feedbackRateLimited: 'Sie haben in kurzer Zeit viel Feedback gesendet. Bitte versuchen Sie es in {seconds} Sekunden erneut.',
  searchTitle: 'Suche',
  resultsFor: (query) => `Ergebnisse für „${query}“`,
  noResults: (query) => `Keine Artikel passen zu „${query}“.`,
  noResultsHelp: 'Prüfen Sie die Schreibweise, versuchen Sie weniger oder allgemeinere Wörter oder stöbern Sie in den Themen.',
  emptyQuery: 'Geben Sie ein paar Wörter in das Suchfeld ein, um Artikel zu finden.',
  browseTopics: 'Alle Themen ansehen',
  previousPage: 'Vorherige Seite',
  nextPage: 'Nächste Seite',
  pageNumber: (page) => `Seite ${page}`,
  notFoundTitle: 'Seite nicht gefunden',
  notFoundHeading: 'Diese Seite konnten wir nicht finden',
  notFoundText: 'Die Seite wurde vielleicht verschoben oder ist nicht mehr verfügbar. Suchen Sie oder beginnen Sie auf der Startseite.',
  rateLimitedTitle: 'Zu viele Anfragen',
  rateLimitedText: (seconds) => `Sie haben in kurzer Zeit viel gesendet. Bitte warten Sie ${seconds} Sekunden und versuchen Sie es dann erneut.`,
  invalidTitle: 'Etwas stimmte nicht',
  invalidText: 'Das Gesendete konnten wir nicht verwenden. Bitte gehen Sie zurück, prüfen Sie es und versuchen Sie es erneut.',
  errorTitle: 'Etwas ist schiefgelaufen',
  errorText: 'Diese Seite kann gerade nicht angezeigt werden. Bitte versuchen Sie es gleich noch einmal.',
  backToArticle: 'Zurück zum Artikel',
  goHome: 'Zur Startseite',
  feed: 'Kürzlich veröffentlicht (Atom-Feed)',
  published: 'Veröffentlicht',
};

const es: UiStrings = {
  language: 'es',
  skipToContent: 'Ir al contenido',
  searchLabel: 'Buscar en el centro de ayuda',
  searchPlaceholder: 'Buscar artículos…',
  searchButton: 'Buscar',
  languageNav: 'Idioma',
  breadcrumb: 'Ruta de navegación',
  home: 'Inicio',
  homeHeading: '¿Cómo podemos ayudarte?',
  homeLead: 'Busca en los artículos o explora los temas a continuación.',
  recentArticles: 'Actualizados recientemente',
  nothingPublished: 'Todavía no se ha publicado ningún artículo.',
  collections: 'Temas',
  articles: 'Artículos',
  articleCount: plural('es', '{n} artículo', '{n} artículos'),
  emptyCollection: 'Todavía no hay artículos aquí.',
  contents: 'Contenido',
  lastUpdated: 'Última actualización',
  related: 'Artículos relacionados',
  moreInCollection: 'Más en esta colección',
  previous: 'Anterior',
  next: 'Siguiente',
  fallbackNotice: (requested, shown) => `Este artículo aún no está disponible en ${requested}; se muestra en ${shown}.`,
  feedbackQuestion: '¿Te ha resultado útil este artículo?',
  feedbackYes: 'Sí, me ayudó',
  feedbackNo: 'No',
  feedbackComment: 'Comentario',
  feedbackEmail: 'Correo electrónico',
  optional: '(opcional)',
  feedbackEmailHint: 'Solo si quieres que te respondamos.',
  feedbackThanks: '¡Gracias por tu opinión!',
  feedbackFailed: 'No se pudo enviar tu opinión. Inténtalo de nuevo.',
  feedbackInvalid: 'Revisa tu comentario y tu correo electrónico e inténtalo de nuevo.',
  feedbackRateLimited: 'Has enviado muchas opiniones en poco tiempo. Inténtalo de nuevo dentro de {seconds} segundos.',
  searchTitle: 'Búsqueda',
  resultsFor: (query) => `Resultados de «${query}»`,
  noResults: (query) => `Ningún artículo coincide con «${query}».`,
  noResultsHelp: 'Revisa la ortografía, prueba con menos palabras o más generales, o explora los temas.',
  emptyQuery: 'Escribe algunas palabras en el buscador para encontrar artículos.',
  browseTopics: 'Ver todos los temas',
  previousPage: 'Página anterior',
  nextPage: 'Página siguiente',
  pageNumber: (page) => `Página ${page}`,
  notFoundTitle: 'Página no encontrada',
  notFoundHeading: 'No hemos encontrado esa página',
  notFoundText: 'Puede que la página se haya movido o ya no esté disponible. Prueba a buscar o vuelve a la página de inicio.',
  rateLimitedTitle: 'Demasiadas solicitudes',
  rateLimitedText: (seconds) => `Has enviado mucho en poco tiempo. Espera ${seconds} segundos y vuelve a intentarlo.`,
  invalidTitle: 'Algo no estaba bien',
  invalidText: 'No hemos podido usar lo que se envió. Vuelve atrás, revísalo e inténtalo de nuevo.',
  errorTitle: 'Algo ha fallado',
  errorText: 'Lo sentimos, esta página no se puede mostrar ahora. Inténtalo de nuevo en un momento.',
  backToArticle: 'Volver al artículo',
  goHome: 'Ir a la página de inicio',
  feed: 'Publicados recientemente (feed Atom)',
  published: 'Publicado',
};

const STRINGS: ReadonlyMap<string, UiStrings> = new Map([en, fr, de, es].map((strings) => [strings.language, strings]));

/** The interface strings for a page language: its own, its base language's (`pt` for `pt-BR`), else English. */
export function uiStrings(language: string): UiStrings {
  return STRINGS.get(language) ?? STRINGS.get(language.split('-')[0]!) ?? en;
}

const names = new Map<string, string>();

/** A language's name in that language, capitalised as it stands alone in a list (`Français`, `Deutsch`, `English`). */
export function languageName(language: string): string {
  let name = names.get(language);
  if (name === undefined) {
    try {
      const native = new Intl.DisplayNames([language], { type: 'language', fallback: 'code' }).of(language) ?? language;
      name = native.charAt(0).toLocaleUpperCase(language) + native.slice(1);
    } catch {
      // A code Intl does not accept as a locale: show the code.
      name = language;
    }
    names.set(language, name);
  }
  return name;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A day as readers of `language` write it (`24 November 2026`), in UTC so every server renders the same page. */
export function formatDate(date: Date, language: string): string {
  let format = dateFormats.get(language);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      format = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
    }
    dateFormats.set(language, format);
  }
  return format.format(date);
}

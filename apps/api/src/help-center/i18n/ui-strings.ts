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

const pt: UiStrings = {
  language: 'pt',
  skipToContent: 'Ir para o conteúdo',
  searchLabel: 'Pesquisar na central de ajuda',
  searchPlaceholder: 'Pesquisar artigos…',
  searchButton: 'Pesquisar',
  languageNav: 'Idioma',
  breadcrumb: 'Trilha de navegação',
  home: 'Início',
  homeHeading: 'Como podemos ajudar?',
  homeLead: 'Pesquise nos artigos ou navegue pelos temas abaixo.',
  recentArticles: 'Atualizados recentemente',
  nothingPublished: 'Ainda não há artigos publicados.',
  collections: 'Temas',
  articles: 'Artigos',
  articleCount: plural('pt', '{n} artigo', '{n} artigos'),
  emptyCollection: 'Ainda não há artigos aqui.',
  contents: 'Conteúdo',
  lastUpdated: 'Última atualização',
  related: 'Artigos relacionados',
  moreInCollection: 'Mais nesta coleção',
  previous: 'Anterior',
  next: 'Seguinte',
  fallbackNotice: (requested, shown) => `Este artigo ainda não está disponível em ${requested}; exibido em ${shown}.`,
  feedbackQuestion: 'Este artigo foi útil?',
  feedbackYes: 'Sim, ajudou',
  feedbackNo: 'Não, não ajudou',
  feedbackComment: 'Comentário',
  feedbackEmail: 'E-mail',
  optional: '(opcional)',
  feedbackEmailHint: 'Só se quiser que entremos em contato.',
  feedbackThanks: 'Obrigado pela sua opinião!',
  feedbackFailed: 'Não foi possível enviar a sua opinião. Tente novamente.',
  feedbackInvalid: 'Verifique o comentário e o endereço de e-mail e tente novamente.',
  feedbackRateLimited: 'Enviou muitas opiniões em pouco tempo. Tente novamente dentro de {seconds} segundos.',
  searchTitle: 'Pesquisa',
  resultsFor: (query) => `Resultados para “${query}”`,
  noResults: (query) => `Nenhum artigo corresponde a “${query}”.`,
  noResultsHelp: 'Verifique a ortografia, use menos palavras ou palavras mais gerais, ou navegue pelos temas.',
  emptyQuery: 'Escreva algumas palavras na caixa de pesquisa para encontrar artigos.',
  browseTopics: 'Ver todos os temas',
  previousPage: 'Página anterior',
  nextPage: 'Página seguinte',
  pageNumber: (page) => `Página ${page}`,
  notFoundTitle: 'Página não encontrada',
  notFoundHeading: 'Não encontramos essa página',
  notFoundText: 'A página pode ter mudado de lugar ou já não estar disponível. Pesquise ou volte à página inicial.',
  rateLimitedTitle: 'Demasiados pedidos',
  rateLimitedText: (seconds) => `Enviou muitos pedidos em pouco tempo. Aguarde ${seconds} segundos e tente novamente.`,
  invalidTitle: 'Algo não estava certo',
  invalidText: 'Não foi possível usar o que foi enviado. Volte atrás, verifique e tente novamente.',
  errorTitle: 'Algo correu mal',
  errorText: 'Desculpe, não foi possível mostrar esta página agora. Tente novamente daqui a pouco.',
  backToArticle: 'Voltar ao artigo',
  goHome: 'Ir para a página inicial',
  feed: 'Publicados recentemente (feed Atom)',
  published: 'Publicado',
};

const it: UiStrings = {
  language: 'it',
  skipToContent: 'Vai al contenuto',
  searchLabel: 'Cerca nel centro assistenza',
  searchPlaceholder: 'Cerca articoli…',
  searchButton: 'Cerca',
  languageNav: 'Lingua',
  breadcrumb: 'Percorso',
  home: 'Home',
  homeHeading: 'Come possiamo aiutarti?',
  homeLead: 'Cerca tra gli articoli o sfoglia gli argomenti qui sotto.',
  recentArticles: 'Aggiornati di recente',
  nothingPublished: 'Non è stato ancora pubblicato alcun articolo.',
  collections: 'Argomenti',
  articles: 'Articoli',
  articleCount: plural('it', '{n} articolo', '{n} articoli'),
  emptyCollection: 'Qui non ci sono ancora articoli.',
  contents: 'Indice',
  lastUpdated: 'Ultimo aggiornamento',
  related: 'Articoli correlati',
  moreInCollection: 'Altro in questa raccolta',
  previous: 'Precedente',
  next: 'Successivo',
  fallbackNotice: (requested, shown) => `Questo articolo non è ancora disponibile in ${requested}; viene mostrato in ${shown}.`,
  feedbackQuestion: 'Questo articolo ti è stato utile?',
  feedbackYes: 'Sì, mi è stato utile',
  feedbackNo: 'No, non mi è stato utile',
  feedbackComment: 'Commento',
  feedbackEmail: 'Email',
  optional: '(facoltativo)',
  feedbackEmailHint: 'Solo se vuoi che ti ricontattiamo.',
  feedbackThanks: 'Grazie per il tuo feedback!',
  feedbackFailed: 'Non è stato possibile inviare il tuo feedback. Riprova.',
  feedbackInvalid: 'Controlla il commento e l’indirizzo email, poi riprova.',
  feedbackRateLimited: 'Hai inviato molti feedback in poco tempo. Riprova tra {seconds} secondi.',
  searchTitle: 'Ricerca',
  resultsFor: (query) => `Risultati per “${query}”`,
  noResults: (query) => `Nessun articolo corrisponde a “${query}”.`,
  noResultsHelp: 'Controlla l’ortografia, prova con meno parole o parole più generiche, oppure sfoglia gli argomenti.',
  emptyQuery: 'Scrivi qualche parola nella casella di ricerca per trovare articoli.',
  browseTopics: 'Sfoglia tutti gli argomenti',
  previousPage: 'Pagina precedente',
  nextPage: 'Pagina successiva',
  pageNumber: (page) => `Pagina ${page}`,
  notFoundTitle: 'Pagina non trovata',
  notFoundHeading: 'Non abbiamo trovato questa pagina',
  notFoundText: 'La pagina potrebbe essere stata spostata o non essere più disponibile. Prova a cercare o riparti dalla home.',
  rateLimitedTitle: 'Troppe richieste',
  rateLimitedText: (seconds) => `Hai inviato molte richieste in poco tempo. Attendi ${seconds} secondi e riprova.`,
  invalidTitle: 'Qualcosa non andava',
  invalidText: 'Non è stato possibile usare ciò che è stato inviato. Torna indietro, controlla e riprova.',
  errorTitle: 'Qualcosa è andato storto',
  errorText: 'Spiacenti, al momento non è possibile mostrare questa pagina. Riprova tra poco.',
  backToArticle: 'Torna all’articolo',
  goHome: 'Vai alla home',
  feed: 'Pubblicati di recente (feed Atom)',
  published: 'Pubblicato',
};

const nl: UiStrings = {
  language: 'nl',
  skipToContent: 'Naar de inhoud',
  searchLabel: 'Zoeken in het helpcentrum',
  searchPlaceholder: 'Artikelen zoeken…',
  searchButton: 'Zoeken',
  languageNav: 'Taal',
  breadcrumb: 'Kruimelpad',
  home: 'Home',
  homeHeading: 'Waarmee kunnen we helpen?',
  homeLead: 'Zoek in de artikelen of blader door de onderwerpen hieronder.',
  recentArticles: 'Onlangs bijgewerkt',
  nothingPublished: 'Er zijn nog geen artikelen gepubliceerd.',
  collections: 'Onderwerpen',
  articles: 'Artikelen',
  articleCount: plural('nl', '{n} artikel', '{n} artikelen'),
  emptyCollection: 'Hier staan nog geen artikelen.',
  contents: 'Inhoud',
  lastUpdated: 'Laatst bijgewerkt',
  related: 'Gerelateerde artikelen',
  moreInCollection: 'Meer in deze verzameling',
  previous: 'Vorige',
  next: 'Volgende',
  fallbackNotice: (requested, shown) => `Dit artikel is nog niet beschikbaar in ${requested}; het wordt getoond in ${shown}.`,
  feedbackQuestion: 'Was dit artikel nuttig?',
  feedbackYes: 'Ja, het hielp',
  feedbackNo: 'Nee, het hielp niet',
  feedbackComment: 'Opmerking',
  feedbackEmail: 'E-mail',
  optional: '(optioneel)',
  feedbackEmailHint: 'Alleen als u wilt dat we contact met u opnemen.',
  feedbackThanks: 'Bedankt voor uw feedback!',
  feedbackFailed: 'Uw feedback kon niet worden verzonden. Probeer het opnieuw.',
  feedbackInvalid: 'Controleer uw opmerking en e-mailadres en probeer het opnieuw.',
  feedbackRateLimited: 'U hebt in korte tijd veel feedback gestuurd. Probeer het over {seconds} seconden opnieuw.',
  searchTitle: 'Zoeken',
  resultsFor: (query) => `Resultaten voor “${query}”`,
  noResults: (query) => `Geen artikelen gevonden voor “${query}”.`,
  noResultsHelp: 'Controleer de spelling, gebruik minder of algemenere woorden, of blader door de onderwerpen.',
  emptyQuery: 'Typ een paar woorden in het zoekvak om artikelen te vinden.',
  browseTopics: 'Alle onderwerpen bekijken',
  previousPage: 'Vorige pagina',
  nextPage: 'Volgende pagina',
  pageNumber: (page) => `Pagina ${page}`,
  notFoundTitle: 'Pagina niet gevonden',
  notFoundHeading: 'We konden deze pagina niet vinden',
  notFoundText: 'De pagina is misschien verplaatst of niet meer beschikbaar. Probeer te zoeken of begin opnieuw op de startpagina.',
  rateLimitedTitle: 'Te veel verzoeken',
  rateLimitedText: (seconds) => `U hebt in korte tijd veel verstuurd. Wacht ${seconds} seconden en probeer het opnieuw.`,
  invalidTitle: 'Er klopte iets niet',
  invalidText: 'We konden niet gebruiken wat er werd verstuurd. Ga terug, controleer het en probeer het opnieuw.',
  errorTitle: 'Er ging iets mis',
  errorText: 'Sorry, deze pagina kan nu niet worden getoond. Probeer het zo opnieuw.',
  backToArticle: 'Terug naar het artikel',
  goHome: 'Naar de startpagina',
  feed: 'Onlangs gepubliceerd (Atom-feed)',
  published: 'Gepubliceerd',
};

const STRINGS: ReadonlyMap<string, UiStrings> = new Map([en, fr, de, es, pt, it, nl].map((strings) => [strings.language, strings]));

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

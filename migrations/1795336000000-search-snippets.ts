import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clean search snippets. `help_plain_text` replaced Markdown syntax with spaces and kept line breaks, so snippets
 * showed runs of spaces, raw newlines, a space before the punctuation after a link, and lost every `!`. It now
 * removes markup without leaving gaps (keeping link labels, image alt text and step and card titles, and
 * unescaping escaped characters) and gives single-spaced text on one line. `help_snippet` runs ts_headline on it and
 * gives each fragment back the punctuation around it that ts_headline cuts (fragments end on a word: "policy"
 * for "policy.", `Reset` for `"Reset".`). The search vectors of published content are recomputed from the new text.
 */
export class SearchSnippets1795336000000 implements MigrationInterface {
  name = 'SearchSnippets1795336000000';

  async up(db: QueryRunner): Promise<void> {
    // Written for the service's own Markdown (content-format's serializer): emphasis is always `*`, a literal `*`,
    // `[`, `<`, `~` or backtick in text is escaped, and a `_` in text is plain text (snake_case stays whole).
    await db.query(String.raw`
      CREATE OR REPLACE FUNCTION help_plain_text(markdown text) RETURNS text
      LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
      DECLARE
        t text := markdown;
      BEGIN
        -- Control characters (tabs and line breaks aside) carry no words; help_snippet uses three as markers.
        t := regexp_replace(t, '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]', ' ', 'g');
        -- Directive fences: a step's or card's title is kept, the rest of the fence line goes.
        t := regexp_replace(t, '^ {0,3}:{3,} *(?:step|card)\{[^\n]*?\mtitle="((?:[^"\\\n]|\\.)*)"[^\n]*$', '\1', 'gn');
        t := regexp_replace(t, '^ {0,3}:{3,}.*$', '', 'gn');
        -- Lines that are only markup: code fences, table delimiter rows, thematic breaks.
        t := regexp_replace(t, '^ {0,3}(?:(?:\x60{3,}|~{3,}).*|\|?(?: *:?-+:? *\|)+ *:?-*:? *|(?:[-*_] *){3,})$', '', 'gn');
        -- Line starts: block quote marks, heading marks, list bullets and numbers.
        t := regexp_replace(t, '^(?: *>)* *(?:#{1,6}(?= |$)|[-+*](?= )|\d{1,9}[.)](?= ))?', '', 'gn');
        -- Images keep their alt text and links their label; targets and titles go. Autolinks lose their brackets.
        t := regexp_replace(t, '(?<!\\)!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\\]|\\.|\([^()]*\))*\)', '\1', 'g');
        t := regexp_replace(t, '(?<!\\)<([a-z][a-z0-9+.-]*:[^<>[:space:]]*)>', '\1', 'gi');
        -- Inline markup, unescaped: emphasis and strong (*), strikethrough (~~), code (backticks), table pipes.
        t := regexp_replace(t, '(?<!\\)(?:\*+|~~|\x60+)', '', 'g');
        t := regexp_replace(t, '(?<!\\)\|', ' ', 'g');
        -- A backslash ending a line is a hard break; any other escaped punctuation is that character.
        t := regexp_replace(t, '\\$', '', 'gn');
        t := regexp_replace(t, '\\([!-/:-@[-\x60{-~])', '\1', 'g');
        -- What the text-search parser takes for HTML tags and comments (text here, escaped on output): ts_headline
        -- would blank them out of snippets, so they go here, and the snippet is the text as given.
        t := regexp_replace(t, '<!--(?:[^-]|-(?!->))*-->|<[!?/]?[A-Za-z][^<>]*>', ' ', 'g');
        -- One space between words and none at the ends: no line breaks, no runs left where markup was.
        RETURN btrim(regexp_replace(t, '\s+', ' ', 'g'));
      END
      $fn$`);
    // The snippet of one body: at most two fragments of 8 to 30 words joined by " … ", matched words between
    // U+0001 and U+0002 (which help_plain_text keeps out of the text). ts_headline's fragments start and end on
    // words; each gets back the punctuation standing at its ends in the text: an opening quote or bracket before
    // it, closing and final punctuation after it (after a space too, as French writes "faire !"), but not what
    // belongs to a word it cut ("password's" stays "password"). Runs of spaces ts_headline might still make are
    // collapsed; a fragment not found as it is in the text keeps its ends as ts_headline cut them.
    await db.query(String.raw`
      CREATE FUNCTION help_snippet(config regconfig, body text, query tsquery) RETURNS text
      LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
        SELECT coalesce(string_agg(
                 CASE WHEN p.pos > 0
                   THEN coalesce(substring(left(body, p.pos - 1) FROM '(?:^|[[:space:]])([^[:space:][:alnum:]]+|« )$'), '') || f.fragment
                     || coalesce(substring(substr(body, p.pos + length(f.raw)) FROM '^([^[:space:][:alnum:]]+| [!?;:»]+)(?:[[:space:]]|$)'), '')
                   ELSE f.fragment END,
                 ' … ' ORDER BY f.n), '')
        FROM regexp_split_to_table(
               ts_headline(config, body, query,
                 'StartSel=' || chr(1) || ', StopSel=' || chr(2) || ', FragmentDelimiter=' || chr(3) || ', MaxFragments=2, MaxWords=30, MinWords=8'),
               chr(3)) WITH ORDINALITY AS f0(fragment, n),
             LATERAL (SELECT btrim(regexp_replace(f0.fragment, '[[:space:]]+', ' ', 'g')) AS fragment, f0.n) f1,
             LATERAL (SELECT f1.fragment, f1.n, translate(f1.fragment, chr(1) || chr(2), '') AS raw) f,
             LATERAL (SELECT strpos(body, f.raw) AS pos) p
      $fn$`);
    await db.query(`
      UPDATE articles a SET search_vector =
          setweight(to_tsvector(help_search_config(h.default_language), r.title), 'A')
       || setweight(to_tsvector(help_search_config(h.default_language), help_plain_text(r.content_markdown)), 'B')
      FROM article_revisions r, helpdesks h
      WHERE r.id = a.live_revision_id AND h.id = a.helpdesk_id AND a.search_vector IS NOT NULL`);
    await db.query(`
      UPDATE article_translations SET search_vector =
          setweight(to_tsvector(help_search_config(locale), published_title), 'A')
       || setweight(to_tsvector(help_search_config(locale), help_plain_text(published_markdown)), 'B')
      WHERE search_vector IS NOT NULL AND published_markdown IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP FUNCTION IF EXISTS help_snippet(regconfig, text, tsquery)');
    await db.query(`
      CREATE OR REPLACE FUNCTION help_plain_text(markdown text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT regexp_replace(
                 regexp_replace(
                   regexp_replace(markdown, '^ {0,3}:{3,}.*$', '', 'gn'),
                 '\\]\\([^)]*\\)', ']', 'g'),
               '[#*_\x60>~|\\[\\]!]+|^ {0,3}[-+] |^ {0,3}\\d+\\. ', ' ', 'gn')
      $$`);
  }
}

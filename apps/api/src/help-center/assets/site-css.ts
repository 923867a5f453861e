/**
 * The help center's stylesheet, served as /assets/site.<hash>.css (immutable). The accent colours come from the
 * theme stylesheet (/assets/theme-<rrggbb>.<hash>.css) as custom properties; the defaults here match the default
 * accent. Kept in a module so the build ships it inside dist with the code that names its hash.
 */
export const SITE_CSS = `
:root{--accent:#1d5bbf;--on-accent:#fff;--link:#1d5bbf;--focus:#1d5bbf;--text:#1d2025;--muted:#4f5664;--line:#d5d9e0;--surface:#f5f6f8;--radius:.5rem;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;font:1rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--text);background:#fff;overflow-wrap:break-word}
h1,h2,h3,h4{line-height:1.25;overflow-wrap:anywhere}
h1{font-size:clamp(1.6rem,4vw,2.2rem);margin:.2em 0 .5em}
h2{font-size:1.35rem;margin:1.6em 0 .6em}
h3{font-size:1.1rem;margin:1.4em 0 .5em}
a{color:var(--link);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:2px}
img{max-width:100%;height:auto}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.wrap{max-width:72rem;margin:0 auto;padding:0 1rem}
.skip-link{position:absolute;left:.5rem;top:.5rem;z-index:10;padding:.6rem 1rem;background:#fff;color:#000;border:2px solid #000;border-radius:var(--radius);font-weight:600;transform:translateY(-200%)}
.skip-link:focus,.skip-link:focus-visible{transform:none;outline:3px solid #000;outline-offset:2px}
.site-header{background:var(--accent);color:var(--on-accent)}
.site-header a{color:var(--on-accent)}
.site-header :focus-visible{outline-color:var(--on-accent)}
.header-bar{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1.5rem;padding-top:.75rem;padding-bottom:.75rem}
.brand{display:inline-flex;align-items:center;gap:.6rem;font-size:1.2rem;font-weight:700;text-decoration:none;min-width:0}
.brand img{max-height:2.5rem;width:auto}
.brand span{overflow-wrap:anywhere}
.languages ul{display:flex;flex-wrap:wrap;gap:.25rem .9rem;margin:0;padding:0;list-style:none}
.languages a[aria-current]{font-weight:700;text-decoration:none}
.search-form{display:flex;flex-wrap:wrap;gap:.5rem;padding-bottom:1rem}
.search-form label{flex:1 1 12rem;min-width:0;display:flex}
.search-form input{flex:1;min-width:0;font:inherit;padding:.55rem .75rem;border:2px solid #5b6270;border-radius:var(--radius);background:#fff;color:var(--text)}
.search-form input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.site-header .search-form input:focus-visible{outline-color:var(--on-accent)}
.button,.search-form button,.feedback button{font:inherit;font-weight:600;padding:.55rem 1rem;border-radius:var(--radius);border:2px solid var(--link);background:var(--link);color:#fff;cursor:pointer}
.site-header .search-form button{background:var(--on-accent);color:var(--accent);border-color:var(--on-accent)}
.feedback button.secondary{background:#fff;color:var(--link)}
main{display:block;flex:1 0 auto;padding:1.5rem 0 3rem}
main:focus{outline:none}
.lead{font-size:1.1rem;color:var(--muted);margin-top:0}
.breadcrumbs ol{display:flex;flex-wrap:wrap;margin:0 0 1rem;padding:0;list-style:none;color:var(--muted);font-size:.95rem}
.breadcrumbs li+li::before{content:"/";margin:0 .5rem;color:var(--muted)}
.breadcrumbs [aria-current]{color:var(--text)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,16rem),1fr));gap:1rem;margin:0;padding:0;list-style:none}
.card{display:block;min-width:0;padding:1rem 1.1rem;border:1px solid var(--line);border-radius:var(--radius);background:#fff}
.card h3{margin:0 0 .3rem}
.card p{margin:.2rem 0;color:var(--muted)}
.card .count{font-size:.9rem;color:var(--muted)}
.card ul{margin:.5rem 0 0;padding-left:1.1rem}
.article-list{margin:0;padding:0;list-style:none}
.article-list li{padding:.75rem 0;border-bottom:1px solid var(--line)}
.article-list li:last-child{border-bottom:0}
.article-list a{font-weight:600}
.article-list p{margin:.2rem 0 0;color:var(--muted)}
.article-layout{display:grid;gap:2rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:60rem){.article-layout{grid-template-columns:minmax(0,1fr) 16rem}.article-layout aside{order:2}}
.article-layout aside{min-width:0}
.toc{border-left:3px solid var(--line);padding-left:1rem}
.toc h2{font-size:1rem;margin:0 0 .5rem}
.toc ol{margin:0;padding:0;list-style:none}
.toc li{margin:.3rem 0}
.toc .level-3{padding-left:1rem}
.meta{color:var(--muted);font-size:.95rem;margin:0 0 1.5rem}
.notice{padding:.75rem 1rem;border:1px solid #b7791f;border-left-width:5px;border-radius:var(--radius);background:#fffaf0;margin:0 0 1.5rem}
.article-body{min-width:0}
.article-body pre{overflow-x:auto;padding:1rem;background:var(--surface);border-radius:var(--radius)}
.article-body code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.article-body table{display:block;overflow-x:auto;border-collapse:collapse;max-width:100%}
.article-body th,.article-body td{border:1px solid var(--line);padding:.4rem .6rem;text-align:left;vertical-align:top}
.article-body .align-left{text-align:left}.article-body .align-center{text-align:center}.article-body .align-right{text-align:right}
.article-body blockquote{margin:1rem 0;padding:.25rem 1rem;border-left:4px solid var(--line);color:var(--muted)}
.article-body h2,.article-body h3{scroll-margin-top:1rem}
.callout{margin:1.25rem 0;padding:.75rem 1rem;border:1px solid;border-left-width:5px;border-radius:var(--radius)}
.callout>:first-child{margin-top:0}.callout>:last-child{margin-bottom:0}
.callout-info{border-color:#2b6cb0;background:#ebf4ff}
.callout-warning{border-color:#b7791f;background:#fffaf0}
.callout-danger{border-color:#c53030;background:#fff5f5}
.callout-success{border-color:#2f855a;background:#f0fff4}
.steps{counter-reset:step;list-style:none;padding:0;margin:1.25rem 0}
.step{counter-increment:step;position:relative;padding:0 0 1rem 2.75rem;min-height:2rem}
.step::before{content:counter(step);position:absolute;left:0;top:0;width:2rem;height:2rem;border-radius:50%;background:var(--link);color:#fff;font-weight:700;display:flex;align-items:center;justify-content:center}
.step-title{margin:.2rem 0 .4rem;font-size:1.05rem}
.step-content>:first-child{margin-top:0}
.article-body .cards{margin:1.25rem 0}
.article-body a.card{text-decoration:none;color:var(--text)}
.article-body a.card .card-title{color:var(--link);text-decoration:underline}
.card-title{margin:0 0 .3rem;font-size:1.05rem}
.card-content>:last-child{margin-bottom:0}
.pager{display:flex;flex-wrap:wrap;justify-content:space-between;gap:1rem;margin:2.5rem 0 0;padding:1rem 0 0;border-top:1px solid var(--line)}
.pager a{display:block;max-width:100%}
.pager .next{margin-left:auto;text-align:right}
.pager small{display:block;color:var(--muted)}
.feedback{margin:2.5rem 0 0;padding:1.25rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--surface)}
.feedback h2{margin-top:0;font-size:1.2rem}
.feedback label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.feedback textarea,.feedback input{width:100%;font:inherit;padding:.5rem .65rem;border:2px solid #5b6270;border-radius:var(--radius);background:#fff;color:var(--text)}
.feedback .hint{font-weight:400;color:var(--muted)}
.feedback-buttons{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}
.feedback-status{margin:.75rem 0 0}
.feedback-status:empty{margin:0}
.thanks{font-weight:600}
.results mark,.article-list mark{background:#fde68a;color:inherit;padding:0 .1em;border-radius:2px}
.pagination{display:flex;flex-wrap:wrap;gap:1rem;justify-content:space-between;margin-top:1.5rem}
.empty{padding:1rem 1.25rem;border:1px dashed var(--line);border-radius:var(--radius)}
.site-footer{border-top:1px solid var(--line);background:var(--surface);padding:1.5rem 0;font-size:.95rem}
.site-footer ul{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:0;padding:0;list-style:none}
.site-footer p{margin:.75rem 0 0;color:var(--muted)}
@media (max-width:30rem){.pager .next{margin-left:0;text-align:left}}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
@media print{.site-header,.site-footer,.feedback,.skip-link,.toc{display:none}}
`;

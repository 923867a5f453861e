/**
 * The developer settings' stylesheet, served as /settings/assets/settings.<hash>.css (immutable) after the help
 * center's own stylesheet and theme, which it builds on (the same type, colours, header, buttons, skip link and
 * focus ring): navigation, tables, forms, the error summary, status badges and the once-shown secrets. Colours keep
 * contrast AA on their backgrounds.
 */
export const SETTINGS_CSS = `
.settings{--danger:#a11d12;--danger-bg:#fef3f2;--ok:#05603a;--ok-bg:#ecfdf3;--warn:#7a4a00;--warn-bg:#fffaeb}
.settings .wrap{max-width:80rem}
.settings-header .header-bar{padding-bottom:.5rem}
.settings-header .who{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem}
.header-button{font:inherit;font-weight:600;padding:.3rem .8rem;border-radius:var(--radius);border:2px solid var(--on-accent);background:transparent;color:var(--on-accent);cursor:pointer}
.header-button:hover{text-decoration:underline}
.settings-nav ul{display:flex;flex-wrap:wrap;gap:.1rem 1.25rem;margin:0;padding:0 0 .4rem;list-style:none}
.settings-nav a{display:inline-block;padding:.3rem 0;font-weight:600;text-decoration:none;border-bottom:3px solid transparent}
.settings-nav a:hover{border-bottom-color:currentColor}
.settings-nav a[aria-current]{border-bottom-color:var(--on-accent)}
.page-head{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem 1rem;margin-bottom:.5rem}
.page-head h1{margin:.2em 0}
.muted{color:var(--muted)}
.mono,.settings code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere}
a.button{display:inline-block;text-decoration:none;color:#fff}
.button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:var(--radius);border:2px solid var(--link);background:var(--link);color:#fff;cursor:pointer;line-height:1.4}
.button.secondary,a.button.secondary{background:#fff;color:var(--link)}
.button.danger,a.button.danger{background:var(--danger);border-color:var(--danger);color:#fff}
.button:hover{text-decoration:underline}
.inline-form{display:inline}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.buttons{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1.5rem}
.table-wrap{position:relative;overflow-x:auto;margin:1rem 0 1.5rem;border:1px solid var(--line);border-radius:var(--radius);background:#fff}
.table-wrap:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
table.data{border-collapse:collapse;width:100%;font-size:.95rem}
.data caption{text-align:left;font-weight:700;padding:.6rem .75rem;border-bottom:1px solid var(--line)}
.data th,.data td{padding:.55rem .75rem;text-align:left;vertical-align:top;border-bottom:1px solid var(--line)}
.data thead th{background:var(--surface);white-space:nowrap}
.data tbody tr:last-child>*{border-bottom:0}
.data td.nowrap,.data .nowrap{white-space:nowrap}
.data .excerpt{max-width:28rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:0;font-size:.85rem}
.badge{display:inline-block;padding:0 .5rem;border-radius:1rem;font-size:.85rem;font-weight:600;border:1px solid;white-space:nowrap}
.badge-ok{color:var(--ok);background:var(--ok-bg)}
.badge-warn{color:var(--warn);background:var(--warn-bg)}
.badge-bad{color:var(--danger);background:var(--danger-bg)}
.badge-muted{color:var(--muted);background:var(--surface)}
.scopes{display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0;list-style:none}
.scopes code{white-space:nowrap}
.form{max-width:44rem}
.field{margin:0 0 1.25rem}
.field>label,.field>legend{display:block;font-weight:700;margin:0 0 .3rem}
.hint{display:block;color:var(--muted);font-weight:400;margin:0 0 .4rem;font-size:.95rem}
.hint p{margin:.2rem 0}
.field input:not([type=checkbox]),.field textarea{display:block;width:100%;font:inherit;padding:.5rem .65rem;border:2px solid #5b6270;border-radius:var(--radius);background:#fff;color:var(--text)}
.field input[readonly]{background:var(--surface)}
.field input[type=date]{max-width:14rem}
.field-error{display:block;color:var(--danger);font-weight:700;margin:0 0 .4rem}
.has-error>input,.has-error>textarea{border-color:var(--danger)}
.has-error{border-left:4px solid var(--danger);padding-left:.75rem}
fieldset.field{border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem 1rem;min-width:0}
fieldset.field.has-error{border-left:4px solid var(--danger)}
fieldset.field>legend{padding:0 .3rem}
.checks{list-style:none;margin:.5rem 0 0;padding:0;display:grid;gap:.6rem 1.5rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,18rem),1fr))}
.check{display:flex;gap:.6rem;align-items:flex-start;min-width:0}
.check input{width:1.3rem;height:1.3rem;margin:.15rem 0 0;flex:none;accent-color:var(--link)}
.check label{font-weight:600}
.check .hint{margin:0}
.error-summary{border:3px solid var(--danger);border-radius:var(--radius);padding:.75rem 1.25rem;margin:0 0 1.5rem;background:#fff}
.error-summary:focus{outline:3px solid var(--focus);outline-offset:2px}
.error-summary h2{margin:0 0 .4rem;font-size:1.15rem}
.error-summary ul{margin:0;padding-left:1.1rem}
.error-summary a{color:var(--danger);font-weight:700}
.success{padding:.75rem 1rem;border:1px solid var(--ok);border-left-width:5px;border-radius:var(--radius);background:var(--ok-bg);margin:0 0 1.5rem}
.warning{padding:.75rem 1rem;border:1px solid var(--warn);border-left-width:5px;border-radius:var(--radius);background:var(--warn-bg);margin:0 0 1.5rem}
.danger-box{padding:.75rem 1rem;border:1px solid var(--danger);border-left-width:5px;border-radius:var(--radius);background:var(--danger-bg);margin:0 0 1.5rem}
.secret{padding:1rem;border:2px solid var(--link);border-radius:var(--radius);background:#fff;max-width:56rem}
.secret-row{display:flex;flex-wrap:wrap;gap:.5rem}
.secret-row input{flex:1 1 16rem;min-width:0;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.copy-status{margin:.4rem 0 0;font-weight:600;color:var(--ok)}
.copy-status:empty{margin:0}
dl.facts{display:grid;grid-template-columns:minmax(9rem,max-content) minmax(0,1fr);gap:.4rem 1.25rem;margin:0 0 1.5rem}
dl.facts dt{font-weight:700}
dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
.data dl.facts{margin:0;gap:.1rem .75rem;grid-template-columns:minmax(5rem,max-content) minmax(10rem,1fr);font-size:.9rem}
.narrow{max-width:30rem}
.auth-box{max-width:28rem;margin:1rem auto 0}
.section-head{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:.5rem 1rem}
@media (max-width:30rem){dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:.4rem}}
@media print{.settings-nav,.header-button,.buttons,.actions{display:none}}
`;

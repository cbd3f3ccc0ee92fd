/**
 * The frame every Longhaul HTML report shares (one run's, a sweep's): the
 * style sheet (screen and print), sections, the document around them. No
 * script and no network: a report reads the same offline in any browser and
 * prints to PDF cleanly (print CSS, no page-split charts or table rows; a
 * `rows` table, one that may run longer than a page, breaks between rows).
 */
import { esc } from './html-svg.js';

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;max-width:980px;margin:1.5rem auto;padding:0 1rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.15rem;margin:1.4rem 0 .4rem;border-bottom:1px solid #ccd;padding-bottom:.2rem}
pre{font:12px/1.35 ui-monospace,Menlo,Consolas,monospace;background:#f6f7f9;padding:.6rem;overflow-x:auto;white-space:pre-wrap}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border:1px solid #ccd;padding:.25rem .4rem;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}.muted{color:#667}.verdict{font-size:1.05rem}.big{font-size:1.3rem;font-weight:600}
svg{display:block;margin:.4rem 0;max-width:100%}svg .t{font-size:13px;font-weight:600;fill:#1b1f24}svg .k{font-size:11px;fill:#445}svg .g{stroke:#e3e6ea}svg .a{stroke:#889}
code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f0f1f4;padding:0 .2rem}
.answer{border-left:4px solid #2a6fdb;padding:.3rem .8rem;margin:1rem 0}.answer-line{margin:.2rem 0}.answer-line:first-child{font-size:1.2rem}
details.explain>summary{cursor:pointer;font-size:1.15rem;font-weight:600;margin:1.4rem 0 .4rem}
@media print{body{margin:0;max-width:none;font-size:11pt}h2{break-after:avoid}svg,table,tr{break-inside:avoid}table.rows{break-inside:auto}pre{white-space:pre-wrap;background:none;border:1px solid #ccd}}
`;

export function section(title: string, body: string): string {
  return `<section><h2>${esc(title)}</h2>${body}</section>`;
}

/** A whole document: `title` is plain text (escaped here), `body` is HTML. */
export function htmlPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>\n`
  );
}

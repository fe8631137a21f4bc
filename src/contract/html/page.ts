/**
 * An HTML report (`--html`) drawn from a {@link ReportView}: one self-contained file, its style
 * inline, no script, nothing fetched (its Content-Security-Policy says so to the browser), light
 * or dark as the system says, readable at 360 px. Every text is escaped here; the value it is
 * drawn from was redacted before (output.ts `writeHtml`), as `--json`'s is.
 *
 * The elements carry what a reader (or a test) looks for as data attributes: each clause row its
 * `data-clause` and `data-verdict`, each story its `data-clause`, each step its `data-step`, and
 * the step that diverged `data-diverged` with its first difference `data-first-difference` (a
 * story without steps, a check of the suite, has its first difference alone); each fact its
 * `data-fact`, the pushback its waits (`data-pushback`) and what was left its count
 * (`data-left-behind`).
 */
import { escapeXml } from '../runner/junit.ts';
import type { Difference } from '../judges/difference.ts';
import type { ClauseRow, ReportView, StoryView } from './view.ts';

/** Text for HTML: markup characters as references, and what XML cannot hold replaced. */
const text = (value: string): string => escapeXml(value).replace(/&#10;/g, '\n');

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --raised: #f6f8fa; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --mark: #fff8c5;
  font: 15px/1.45 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1;
  --line: #30363d; --raised: #161b22; --ok: #3fb950; --bad: #ff7b72; --warn: #d29922; --mark: #3b2e00; } }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; background: var(--bg); color: var(--fg); }
h1 { font-size: 1.2rem; margin: 1rem 0 0.25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
.verdict { font-size: 1.3rem; font-weight: 700; margin: 0.5rem 0; }
.verdict[data-passed="true"] { color: var(--ok); } .verdict[data-passed="false"] { color: var(--bad); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--line); }
td { overflow-wrap: anywhere; }
td.v-passed { color: var(--ok); } td.v-failed { color: var(--bad); font-weight: 600; }
td.v-noted { color: var(--warn); } td.v-not-judged { color: var(--muted); }
details { border: 1px solid var(--line); border-radius: 6px; margin: 0.75rem 0; padding: 0.5rem 0.75rem; }
summary { cursor: pointer; font-weight: 600; }
ol.steps { list-style: none; padding: 0; margin: 0.75rem 0; }
ol.steps > li { display: grid; grid-template-columns: 2.5rem 1fr 1fr 1fr; gap: 0.5rem;
  border-bottom: 1px solid var(--line); padding: 0.35rem 0; }
ol.steps > li.head { font-weight: 600; color: var(--muted); }
ol.steps > li[data-diverged] { background: var(--mark); }
.side { font-family: ui-monospace, monospace; font-size: 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.difference { grid-column: 1 / -1; border-left: 3px solid var(--bad); padding: 0.25rem 0.75rem; }
.difference code { font-size: 0.85rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
@media (max-width: 40em) { ol.steps > li { grid-template-columns: 1fr; } ol.steps > li.head { display: none; }
  .side::before { content: attr(data-side) ": "; color: var(--muted); } }
`;

function differenceBlock(difference: Difference, sides: StoryView['sides']): string {
  const where = difference.pointer === '' ? 'the whole value' : difference.pointer;
  const at = difference.at
    ? ` (${text(difference.at.expected)} against ${text(difference.at.actual)})`
    : '';
  return `<div class="difference" data-first-difference="${text(difference.pointer)}">
<strong>First difference</strong> at <code>${text(where)}</code>${difference.offset === undefined ? '' : `, character ${difference.offset}`}${at}
<div>${text(sides.model)}: <code>${text(difference.expected)}</code></div>
<div>${text(sides.target)}: <code>${text(difference.actual)}</code></div>
</div>`;
}

function storyBlock(story: StoryView, index: number): string {
  const diverged = story.divergedAt ?? story.steps.length - 1;
  const steps = story.steps.map((step, i) => {
    const mark = i === diverged ? ' data-diverged' : '';
    const difference =
      i !== diverged
        ? ''
        : `<div class="difference"><strong>Diverged here</strong> (${text(story.clause)})</div>${story.difference ? differenceBlock(story.difference, story.sides) : ''}`;
    return `<li data-step="${i + 1}"${mark}><span>${i + 1}.</span><span class="side" data-side="client">${text(step.request)}</span><span class="side" data-side="${text(story.sides.model)}">${text(step.model ?? '')}</span><span class="side" data-side="${text(story.sides.target)}">${text(step.target ?? '')}</span>${difference}</li>`;
  });
  const head = `<li class="head"><span>#</span><span>client</span><span>${text(story.sides.model)}</span><span>${text(story.sides.target)}</span></li>`;
  // A check of the suite is told by its difference alone: no steps, none of them marked.
  const noSteps =
    story.steps.length === 0 && story.difference
      ? differenceBlock(story.difference, story.sides)
      : '';
  return `<details data-story="${index + 1}" data-clause="${text(story.clause)}"${index === 0 ? ' open' : ''}>
<summary>${text(story.clause)}: ${text(story.title)}</summary>
<p>${text(story.message)}</p>
${steps.length > 0 ? `<ol class="steps">${head}${steps.join('\n')}</ol>` : noSteps}
${(story.notes ?? []).map((note) => `<p class="muted">${text(note)}</p>`).join('\n')}
</details>`;
}

function clauseRow(row: ClauseRow): string {
  return `<tr data-clause="${text(row.id)}" data-verdict="${row.verdict}"><td>${text(row.id)}</td><td class="v-${row.verdict.replace(' ', '-')}">${row.verdict}</td><td>${text(row.detail)}</td></tr>`;
}

function leftBehind(ids: string[] | undefined): string {
  if (ids === undefined) return '<p data-left-behind="0">Nothing: this command only reads.</p>';
  return `<p data-left-behind="${ids.length}">${ids.length === 0 ? 'Nothing: the run deleted all it made.' : text(ids.join(', '))}</p>`;
}

/** The whole page of a report. */
export function renderReport(view: ReportView): string {
  const facts = view.facts.map(
    ([name, value]) => `<dt>${text(name)}</dt><dd data-fact="${text(name)}">${text(value)}</dd>`,
  );
  const counts = (['passed', 'failed', 'noted', 'not judged'] as const)
    .map((verdict) => [verdict, view.clauses.filter((row) => row.verdict === verdict).length])
    .filter(([, n]) => n !== 0)
    .map(([verdict, n]) => `${n} ${verdict}`)
    .join(', ');
  const pushback = view.pushback;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${text(view.command)}: ${text(view.verdict.label)}</title>
<style>${STYLE}</style>
</head>
<body>
<main data-command="${text(view.command)}">
<h1>${text(view.command)}</h1>
<p>${text(view.title)}</p>
<p class="verdict" data-verdict="${text(view.verdict.label)}" data-passed="${view.verdict.passed}">${text(view.verdict.label)}</p>
${view.verdict.why ? `<p>${text(view.verdict.why)}</p>` : ''}
<dl class="facts">${facts.join('')}</dl>
${
  view.stories.length > 0
    ? `<h2>What failed (${view.stories.length})</h2>\n${view.stories.map(storyBlock).join('\n')}`
    : ''
}
<h2>${text(view.clausesAre ?? 'Clauses')}${counts ? `: ${counts}` : ''}</h2>
<div class="scroll"><table class="clauses">
<thead><tr><th scope="col">clause</th><th scope="col">verdict</th><th scope="col">how it was judged, or why not</th></tr></thead>
<tbody>
${view.clauses.map(clauseRow).join('\n')}
</tbody></table></div>
${
  pushback
    ? `<h2>Pushback</h2><p data-pushback="${pushback.waits}">${pushback.waits} waits asked (429 or 503 with Retry-After), ${(pushback.waitedMs / 1000).toFixed(1)} s waited, ${pushback.notWaited} longer waits not honoured.</p>`
    : ''
}
<h2>Left behind</h2>
${leftBehind(view.leftBehind)}
${view.notes.length > 0 ? `<h2>Notes</h2><ul>${view.notes.map((note) => `<li>${text(note)}</li>`).join('')}</ul>` : ''}
</main>
</body>
</html>
`;
}

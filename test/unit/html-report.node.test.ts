/**
 * The HTML report's page (`--html`, src/contract/html/page.ts): whatever a target answered or a
 * consumer test was named, it is text on the page, never markup; the page fetches nothing and
 * runs nothing. The views and the page in Chromium are tested in test/e2e/html-reports.
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/contract/html/page.ts';
import type { ReportView } from '../../src/contract/html/view.ts';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '"><script>alert(1)</script>',
  "' onmouseover='alert(1)",
  '</textarea></details><iframe src="https://evil.example">',
];

function view(hostile: string): ReportView {
  return {
    command: 'answers-contract explore',
    title: hostile,
    verdict: { label: hostile, passed: false, why: hostile },
    facts: [[hostile, hostile]],
    clauses: [{ id: hostile, verdict: 'failed', detail: hostile }],
    stories: [
      {
        title: hostile,
        clause: hostile,
        message: hostile,
        sides: { model: hostile, target: hostile },
        steps: [{ request: hostile, model: hostile, target: hostile }],
        difference: { pointer: hostile, expected: hostile, actual: hostile },
        notes: [hostile],
      },
    ],
    leftBehind: [hostile],
    notes: [hostile],
  };
}

describe('the HTML report page', () => {
  it.each(HOSTILE)('writes %j as text wherever it stands', (hostile) => {
    const page = renderReport(view(hostile));
    expect(page).not.toContain(hostile);
    expect(page).not.toMatch(/<(script|img|iframe)\b/i);
    // Every attribute value stays quoted whole: no quote of the text ends one early.
    for (const [, value] of page.matchAll(/data-[a-z-]+="([^"]*)"/g))
      expect(value).not.toMatch(/[<>']/);
  });

  it('fetches nothing and runs nothing: a CSP of none, no script, no external URL', () => {
    const page = renderReport(view('plain'));
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(page).not.toMatch(/<script|https?:\/\//i);
  });

  it('marks the diverged step, by default the last, and its first difference', () => {
    const base = view('x');
    const story = { ...base.stories[0]!, steps: [{ request: 'a' }, { request: 'b' }] };
    const last = renderReport({ ...base, stories: [story] });
    expect(last).toMatch(/<li data-step="2" data-diverged>/);
    expect(last).toContain('data-first-difference="x"');
    const first = renderReport({ ...base, stories: [{ ...story, divergedAt: 0 }] });
    expect(first).toMatch(/<li data-step="1" data-diverged>/);
    expect(first).not.toMatch(/<li data-step="2" data-diverged>/);
  });

  it('shows a story without steps (a check of the suite) by its first difference alone', () => {
    const base = view('x');
    const page = renderReport({ ...base, stories: [{ ...base.stories[0]!, steps: [] }] });
    expect(page).toContain('data-first-difference="x"');
    expect(page).not.toMatch(/<li data-step|<li [^>]*data-diverged/);
  });
});

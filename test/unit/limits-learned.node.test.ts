/**
 * Limits the spec does not state (§8), declared or learned (src/contract/explore/limits.ts): the
 * values a run sends are fitted within each declared limit, and a clean refusal past what the
 * target took before and past what every deployment takes is a limit, not a divergence.
 */
import { describe, expect, it } from 'vitest';
import { fit, LimitsLearned, measure } from '../../src/contract/explore/limits.ts';

const deep = (levels: number): unknown => (levels === 0 ? 'x' : { a: deep(levels - 1) });

describe('fit, per field', () => {
  it.each([
    [
      'depth: a value nested deeper is kept as text',
      { metadata: deep(6) as Record<string, unknown> },
      { depth: 4 },
      'depth',
      4,
    ],
    [
      'arrayLength: a longer array is cut',
      { content: { list: Array.from({ length: 50 }, (_, i) => i) } },
      { arrayLength: 10 },
      'arrayLength',
      10,
    ],
    [
      'metadataBytes: its last keys left out',
      {
        metadata: Object.fromEntries(
          Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(40)]),
        ),
      },
      { metadataBytes: 1_024 },
      'metadataBytes',
      1_024,
    ],
    [
      'metadataBytes: one long value halved',
      { metadata: { only: 'v'.repeat(5_000) } },
      { metadataBytes: 1_024 },
      'metadataBytes',
      1_024,
    ],
    [
      'contentBytes: its longest strings halved',
      { content: { text: 'é'.repeat(20_000) } },
      { contentBytes: 16_384 },
      'contentBytes',
      16_384,
    ],
  ] as const)('%s', (_, values, limits, name, most) => {
    const before = measure(values)[name];
    const out = fit(values, limits)!;
    expect(before).toBeGreaterThan(most);
    expect(measure(out)[name]).toBeLessThanOrEqual(most);
    // Never emptied: a value is cut, the first key kept.
    expect(JSON.stringify(out).length).toBeGreaterThan(10);
    if ('metadata' in values)
      expect(Object.keys(out.metadata!)[0]).toBe(Object.keys(values.metadata)[0]);
  });
});

describe('LimitsLearned', () => {
  const big = { content: { text: 'w'.repeat(40_000) } };
  const deep5 = { metadata: deep(5) as Record<string, unknown> };
  it.each([
    ['nothing taken yet: a refusal past the floor is a limit', [], deep5, ['depth']],
    [
      'past what was taken: a limit',
      [{ metadata: deep(3) as Record<string, unknown> }],
      deep5,
      ['depth'],
    ],
    [
      'no deeper than what was taken: judged',
      [{ metadata: deep(6) as Record<string, unknown> }],
      deep5,
      [],
    ],
    [
      'within every floor: judged, whatever was taken',
      [],
      { metadata: { a: 1 }, content: { t: 'x' } },
      [],
    ],
    ['a large body: each measure it goes past', [], big, ['body', 'string', 'contentBytes']],
  ] as const)('%s', (_, taken, refused, past) => {
    const learned = new LimitsLearned();
    for (const values of taken) learned.took(values);
    const atLimit = learned.refused(refused, 422);
    expect(atLimit?.past.map((p) => p.measure) ?? []).toEqual(past);
  });

  it('keeps the run below the smallest refused value from then on, and reports it once with its line', () => {
    const learned = new LimitsLearned();
    learned.took({ metadata: deep(4) as Record<string, unknown> });
    learned.refused({ metadata: deep(6) as Record<string, unknown> }, 422);
    learned.refused({ metadata: deep(5) as Record<string, unknown> }, 422);
    expect(learned.within({ string: 100 })).toEqual({ string: 100, depth: 4 });
    expect(learned.met()).toEqual([
      { measure: 'depth', smallest: 5, largestTaken: 4, count: 2, declare: 'limits: { depth: 4 }' },
    ]);
    const out = fit({ metadata: deep(7) as Record<string, unknown> }, learned.within({}))!;
    expect(measure(out).depth).toBe(4);
  });

  it('never lowers a limit below what every deployment takes, nor above a declared one', () => {
    const learned = new LimitsLearned();
    learned.refused({ metadata: deep(4) as Record<string, unknown> }, 422);
    expect(learned.within({}).depth).toBe(3);
    expect(learned.within({ depth: 2 }).depth).toBe(2);
  });
});

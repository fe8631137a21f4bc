import { describe, expect, it } from 'vitest';
import { Clock, toTimestamp } from '../../src/core/store/clock.ts';

type Step = ['tick'] | ['peek'] | ['set', number] | ['advance', number];

/** Runs the steps on a clock frozen at `start` and returns what tick and peek read. */
function readings(start: number, steps: Step[]): number[] {
  const clock = new Clock(start);
  const out: number[] = [];
  for (const step of steps) {
    if (step[0] === 'tick') out.push(clock.tick());
    else if (step[0] === 'peek') out.push(clock.peek());
    else if (step[0] === 'set') clock.set(step[1]);
    else clock.advance(step[1]);
  }
  return out;
}

describe('Clock (frozen)', () => {
  it.each<{ name: string; steps: Step[]; want: number[] }>([
    { name: 'ticks 1 ms apart', steps: [['tick'], ['tick'], ['tick']], want: [1000, 1001, 1002] },
    {
      name: 'peeks without ticking',
      steps: [['peek'], ['tick'], ['peek']],
      want: [1000, 1000, 1000],
    },
    {
      name: 'moves forward by advance',
      steps: [['tick'], ['advance', 500], ['tick']],
      want: [1000, 1500],
    },
    {
      name: 'set backwards still never repeats a reading',
      steps: [['tick'], ['tick'], ['set', 500], ['tick'], ['tick']],
      want: [1000, 1001, 500, 501],
    },
    {
      name: 'set forwards jumps',
      steps: [['tick'], ['set', 5000], ['tick']],
      want: [1000, 5000],
    },
  ])('$name', ({ steps, want }) => {
    expect(readings(1000, steps)).toEqual(want);
  });

  it('is frozen until unfrozen', () => {
    const clock = new Clock(0);
    expect(clock.frozen).toBe(true);
    clock.unfreeze();
    expect(clock.frozen).toBe(false);
    clock.advance(10);
    expect(clock.frozen).toBe(true);
  });
});

describe('Clock (back to the wall clock)', () => {
  it('reads the wall clock again after unfreeze, whatever was ticked in a set future', () => {
    const clock = new Clock(Date.parse('2099-01-01T00:00:00Z'));
    clock.tick();
    clock.tick();
    const before = Date.now();
    clock.unfreeze();
    const reading = clock.tick();
    const after = Date.now();
    expect(reading).toBeGreaterThanOrEqual(before);
    expect(reading).toBeLessThanOrEqual(after);
    expect(clock.tick()).toBeGreaterThan(reading);
  });

  it('keeps readings apart when unfreeze is called on a running clock', () => {
    const clock = new Clock();
    const first = clock.tick();
    clock.unfreeze();
    expect(clock.tick()).toBeGreaterThan(first);
  });
});

describe('toTimestamp', () => {
  it.each([
    { ms: 0, want: '1970-01-01T00:00:00.000Z' },
    { ms: 1_795_435_200_123, want: '2026-11-23T12:00:00.123Z' },
  ])('formats $ms', ({ ms, want }) => {
    expect(toTimestamp(ms)).toBe(want);
  });
});

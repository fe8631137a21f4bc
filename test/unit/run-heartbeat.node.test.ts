import { describe, expect, it } from 'vitest';
import { HEARTBEAT_STALE_MS, isAlive } from '../../src/contract/heartbeat.ts';

const NOW = Date.UTC(2026, 0, 1);
const HOST = 'ci-runner-1';
const LIVE_PID = 4242;
const exists = (pid: number) => pid === LIVE_PID;

describe('isAlive: whether a heartbeat is a run still going on, so sweep keeps its data', () => {
  it.each([
    {
      name: 'touched now by a process that exists',
      touchedMs: NOW,
      pid: LIVE_PID,
      host: HOST,
      want: true,
    },
    {
      name: 'touched at the staleness limit',
      touchedMs: NOW - HEARTBEAT_STALE_MS,
      pid: LIVE_PID,
      host: HOST,
      want: true,
    },
    {
      name: 'untouched past the staleness limit',
      touchedMs: NOW - HEARTBEAT_STALE_MS - 1,
      pid: LIVE_PID,
      host: HOST,
      want: false,
    },
    {
      name: 'touched now, its process gone (killed with SIGKILL)',
      touchedMs: NOW,
      pid: 7,
      host: HOST,
      want: false,
    },
    {
      name: 'touched now by another host (a shared temp dir): its process cannot be asked',
      touchedMs: NOW,
      pid: 7,
      host: 'ci-runner-2',
      want: true,
    },
    {
      name: 'touched now, a file it cannot read',
      touchedMs: NOW,
      pid: undefined,
      host: HOST,
      want: true,
    },
    {
      name: 'stale, a file it cannot read',
      touchedMs: NOW - HEARTBEAT_STALE_MS - 1,
      pid: undefined,
      host: HOST,
      want: false,
    },
  ])('$name: $want', ({ touchedMs, pid, host, want }) => {
    const file = pid === undefined ? undefined : { pid, host };
    expect(isAlive({ touchedMs, file }, NOW, exists, HOST)).toBe(want);
  });
});

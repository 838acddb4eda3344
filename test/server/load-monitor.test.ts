import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { monitorEventLoop } from '../../server/limits/load.ts';

// Saturation is judged by the event loop's state, so these tests put it in each state on purpose:
// kept busy by this process's own work, and idle.

/** Keeps the event loop busy with this process's own work. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const idleFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a loop kept busy past the delay is saturated while the work lasts and after it, until the loop is idle again', async () => {
  const monitor = monitorEventLoop(100);
  try {
    await idleFor(100);
    assert.is(monitor.saturated(), false);
    busyFor(300);
    assert.is(monitor.saturated(), true, 'during a long stretch of work');
    // The next sample records the late, busy stretch.
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(monitor.saturated(), true, 'right after it');
    await idleFor(300);
    assert.is(monitor.saturated(), false, 'once the loop has been idle');
  } finally {
    monitor.close();
  }
});

test('work shorter than the delay is not saturation', async () => {
  const monitor = monitorEventLoop(200);
  try {
    for (let round = 0; round < 5; round++) {
      busyFor(50);
      assert.is(monitor.saturated(), false);
      await idleFor(30);
    }
  } finally {
    monitor.close();
  }
});

test('a delay of 0 turns the monitor off', () => {
  const monitor = monitorEventLoop(0);
  busyFor(50);
  assert.is(monitor.saturated(), false);
  monitor.close();
});

test.run();

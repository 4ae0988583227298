// The sink's measure of its own lateness (harness/sink/lag.ts): a blocked event
// loop shows around the stamps taken during and right after the block, and not
// long before or after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLagMonitor } from '../../harness/sink/lag.ts';

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

test('a 300 ms block is seen around stamps during and just after it, not a second before', async () => {
  const now = () => performance.now();
  const lag = startLagMonitor(now);
  try {
    await sleep(1_100);
    const before = now() - 1_000;
    const start = now();
    while (now() - start < 300) { /* the loop is blocked */ }
    const end = now();
    await sleep(50);
    assert.ok(lag.max() >= 250, `worst lateness ${lag.max()} ms`);
    assert.ok(lag.around(start + 150) >= 250, 'a stamp during the block');
    assert.ok(lag.around(end + 5) >= 250, 'a stamp taken as the loop works off what came during the block');
    // Far from the block the lateness is whatever this machine does otherwise, well under the block.
    assert.ok(lag.around(before) < 250, `a stamp a second before: ${lag.around(before)} ms`);
  } finally { lag.stop(); }
});

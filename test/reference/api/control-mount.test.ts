// The server mounts B2's control API at /control and hands it the
// organisation's registered webhook (startReference's webhookUrl and
// webhookApiKey): a checkout that names no webhook is delivered there, and the
// reference's attempt log matches what the receiver saw.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { startReference } from '../../../harness/reference/index.ts';

describe('control API mounted on the reference server', () => {
  it('delivers a checkout without "webhook" to the registered webhook with its api-key', async () => {
    const seen: { headers: IncomingHttpHeaders; body: { status: string; id: string } }[] = [];
    let notify = () => {};
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', d => { text += d; });
      req.on('end', () => { seen.push({ headers: req.headers, body: JSON.parse(text) }); res.writeHead(200).end(); notify(); });
    });
    await new Promise<void>(r => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    const ref = await startReference({ timeScale: 0.01, webhookUrl: url, webhookApiKey: 'registered-key' });
    try {
      const statuses = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
      const created = await fetch(`${ref.controlUrl}/checkouts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'normal', statuses }) });
      assert.equal(created.status, 201);
      const { id } = await created.json() as { id: string };
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`only ${seen.length} webhooks arrived`)), 15_000);
        notify = () => { if (seen.length >= statuses.length) { clearTimeout(t); resolve(); } };
        notify();
      });
      await ref.settled(id);
      assert.deepEqual(seen.map(s => s.body.status), statuses);
      assert.ok(seen.every(s => s.headers['api-key'] === 'registered-key' && s.body.id === id));
      const log = ref.attempts().filter(a => a.checkoutId === id);
      assert.deepEqual(log.map(a => [a.status, a.outcome]), statuses.map(s => [s, 'delivered']));
    } finally {
      await ref.close();
      receiver.close();
    }
  });
});

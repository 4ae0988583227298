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
    const ref = await startReference({ timeScale: 0.1, webhookUrl: url, webhookApiKey: 'registered-key' });
    try {
      const statuses = ['STARTED', 'PAYMENT_INITIATED', 'PAYMENT_COMPLETED'];
      const created = await fetch(`${ref.controlUrl}/checkouts`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'normal', statuses }) });
      assert.equal(created.status, 201);
      const { id } = await created.json() as { id: string };
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`only ${seen.length} webhooks arrived`)), 15_000);
        notify = () => { if (seen.length >= statuses.length) { clearTimeout(t); resolve(); } };
        notify();
      });
      await ref.settled(id);
      // At-least-once: a busy machine may make an attempt miss the 5 spec s limit (0.5 real s here) and be
      // sent again, so the receiver may see a status twice; the log must show exactly what it saw.
      assert.deepEqual(seen.map(s => s.body.status).filter((s, i, all) => s !== all[i - 1]), statuses);
      assert.ok(seen.every(s => s.headers['api-key'] === 'registered-key' && s.body.id === id));
      const log = ref.attempts().filter(a => a.checkoutId === id);
      assert.deepEqual(log.map(a => a.status), seen.map(s => s.body.status));
      assert.deepEqual(log.filter(a => a.outcome === 'delivered').map(a => a.status), statuses);
    } finally {
      await ref.close();
      receiver.close();
    }
  });
});

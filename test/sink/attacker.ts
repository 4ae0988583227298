// A hostile client for the sink's tests, run in a process of its own (it needs
// the file descriptors): opens N connections, each sending a request's headers
// and a first chunk of a chunked body that never ends, keeps at most M open at
// once, and prints what became of them as one JSON line.
// Usage: tsx test/sink/attacker.ts URL N M
import { connect, type Socket } from 'node:net';

const [url, total, inFlight] = [new URL(process.argv[2]), Number(process.argv[3]), Number(process.argv[4])];
let started = 0, connected = 0, closedByPeer = 0, errors = 0, open = 0, maxOpen = 0, answered408 = 0;
const t0 = performance.now();

function one(): Promise<void> {
  return new Promise(resolve => {
    const s: Socket = connect(Number(url.port), url.hostname);
    let done = false;
    const end = () => { if (!done) { done = true; open--; resolve(); } };
    open++; maxOpen = Math.max(maxOpen, open);
    s.on('connect', () => {
      connected++;
      s.write(`POST /hooks/stranger-${started} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
        `transfer-encoding: chunked\r\n\r\n5\r\n{"id"\r\n`);
    });
    s.on('data', d => { if (d.toString('latin1').startsWith('HTTP/1.1 408')) answered408++; });
    s.on('error', () => { errors++; });
    s.on('close', () => { closedByPeer++; end(); });
  });
}

const workers = Array.from({ length: inFlight }, async () => {
  while (started < total) { started++; await one(); }
});
// Each worker waits for its connection to be closed by the sink before opening the next:
// the sink's cap and deadline are what keep this going.
await Promise.all(workers);
process.stdout.write(JSON.stringify({ started, connected, closedByPeer, errors, maxOpen, answered408, ms: Math.round(performance.now() - t0) }) + '\n');

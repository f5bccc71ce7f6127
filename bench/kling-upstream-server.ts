/**
 * A lean Kling upstream for the push benchmark, in its own process: every queried task is still
 * processing. It counts the queries (the provider reads the gateway makes) and serves the count at
 * GET /stats; GET /reset starts it again. It checks no JWT: the gateway's signing is not measured.
 */
import { createServer } from 'node:http';

let reads = 0;

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const query = /^\/v1\/videos\/text2video\/([^/?]+)$/.exec(url);
  if (req.method === 'GET' && query) {
    reads++;
    const now = Date.now();
    const body = JSON.stringify({
      code: 0,
      message: 'SUCCEED',
      request_id: 'bench',
      data: { task_id: query[1], task_status: 'processing', task_status_msg: '', created_at: now, updated_at: now },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ reads }));
    return;
  }
  if (url === '/reset') {
    reads = 0;
    res.end('ok');
    return;
  }
  res.writeHead(404).end();
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});

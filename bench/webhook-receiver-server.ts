/**
 * Webhook receivers for the benchmark, in their own process: `/a` and `/b` answer 204 at once,
 * `/hang` never answers. Records, per healthy path, when each task's event arrived; GET /stats.
 */
import { createServer } from 'node:http';

const arrivals: Record<string, Array<[string, number]>> = { '/a': [], '/b': [] };
let hanging = 0;

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  if (req.method === 'GET' && path === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ arrivals, hanging }));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    if (path === '/hang') {
      hanging++;
      return;
    }
    const taskId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } }).data?.id ?? '';
    arrivals[path]?.push([taskId, at]);
    res.writeHead(204).end();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});

/**
 * The bare floor for the content benchmark, in its own process: a plain `node:http` server doing
 * what GET /content does, nothing more. With CONTENT_FILE it streams that file (the store case);
 * with CONTENT_UPSTREAM it relays that URL's body (the proxied case). It prints `listening <port>`.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, get } from 'node:http';

const file = process.env.CONTENT_FILE;
const upstream = process.env.CONTENT_UPSTREAM;

const server = createServer((req, res) => {
  if (file) {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
    return;
  }
  get(upstream!, (answer) => {
    res.writeHead(answer.statusCode ?? 502, { 'content-type': 'video/mp4', 'content-length': answer.headers['content-length'] ?? '' });
    answer.pipe(res);
  }).on('error', () => res.destroy());
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});

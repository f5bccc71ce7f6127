/**
 * Express 5's own ceiling on this machine, for the hot-path benchmark: one route answering a small
 * JSON object, no middleware. Prints `listening <port>`.
 */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});
server.keepAliveTimeout = 60_000;

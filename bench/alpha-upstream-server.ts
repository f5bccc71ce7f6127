/**
 * A lean family A upstream for the benchmarks, run in its own process so it does not share the
 * gateway's event loop. Text generation answers at once with a new video id; every queried video
 * is still generating (status 5). It records, per video, the gap between consecutive polls, and
 * serves the statistics at GET /stats. `POST /finish?from=<id>&count=<n>&over=<ms>` makes videos
 * from..from+n-1 finish (status 1, with a video link) at random times over the next `over` ms.
 */
import { createServer } from 'node:http';

const lastPoll = new Map<string, number>();
let nextVideoId = 1_000_000;
let gaps: number[] = [];
let polls = 0;
/** Video id -> when it finishes (epoch ms). */
const finishAt = new Map<string, number>();

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  if (url.startsWith('/openapi/v2/video/result/')) {
    const id = url.slice('/openapi/v2/video/result/'.length);
    const now = Date.now();
    const previous = lastPoll.get(id);
    if (previous !== undefined) gaps.push(now - previous);
    lastPoll.set(id, now);
    polls++;
    const finished = (finishAt.get(id) ?? Infinity) <= now;
    const resp = finished
      ? {
          id: Number(id),
          status: 1,
          prompt: 'bench',
          url: `http://127.0.0.1:${port()}/files/${id}.mp4`,
          outputWidth: 1280,
          outputHeight: 720,
        }
      : { id: Number(id), status: 5, prompt: 'bench' };
    const body = JSON.stringify({ ErrCode: 0, ErrMsg: 'success', Resp: resp });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (req.method === 'POST' && url.startsWith('/openapi/v2/video/text/generate')) {
    req.resume();
    req.on('end', () => {
      const body = JSON.stringify({ ErrCode: 0, ErrMsg: 'success', Resp: { video_id: nextVideoId++ } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    return;
  }
  if (req.method === 'POST' && url.startsWith('/finish?')) {
    const query = new URL(url, 'http://x').searchParams;
    const from = Number(query.get('from'));
    const now = Date.now();
    for (let i = 0; i < Number(query.get('count')); i++)
      finishAt.set(String(from + i), now + Math.floor(Math.random() * Number(query.get('over'))));
    res.end('ok');
    return;
  }
  if (url === '/stats') {
    const body = JSON.stringify({ polls, gaps, distinctPolled: lastPoll.size });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return;
  }
  if (url === '/reset') {
    lastPoll.clear();
    gaps = [];
    polls = 0;
    res.end('ok');
    return;
  }
  res.writeHead(404).end();
});

const port = () => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
});

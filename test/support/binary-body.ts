/** supertest parser keeping a response body as raw bytes (videos): `.buffer(true).parse(binaryBody)`. */
export function binaryBody(res: import('superagent').Response, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}

import { createServer } from 'node:http';

/** The loopback receiver of the webhook benchmark: reads each body and answers 204; prints counts on demand. */
let received = 0;
const server = createServer((request, response) => {
  request.on('data', () => undefined);
  request.on('end', () => {
    received += 1;
    response.statusCode = 204;
    response.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening on ${address.port}\n`);
});
process.on('message', () => process.send?.(received));

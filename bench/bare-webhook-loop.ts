import { Agent, request } from 'undici';
import { signatureHeaders } from '#webhooks';

/**
 * The baseline of the webhook benchmark: the least a sender can do: POST the same signed payloads to the same
 * receiver with undici, 100 at a time, no queue and no database. Prints deliveries per second.
 */
const url = process.env.RECEIVER_URL!;
const total = Number(process.env.TOTAL ?? 10_000);
const concurrency = Number(process.env.CONCURRENCY ?? 100);
const body = process.env.BODY!;
const secret = process.env.SECRET!;
const agent = new Agent({ connections: concurrency });

let sent = 0;
const started = performance.now();
async function worker(): Promise<void> {
  while (sent < total) {
    const n = sent++;
    const response = await request(url, {
      dispatcher: agent,
      method: 'POST',
      headers: { ...signatureHeaders([secret], `whdl_bench${n}`, new Date(), body), 'content-type': 'application/json' },
      body,
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`HTTP ${response.statusCode}`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ total, seconds, perSecond: total / seconds })}\n`);
await agent.close();

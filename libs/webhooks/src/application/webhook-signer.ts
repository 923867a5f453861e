import { Webhook } from 'standardwebhooks';

const signers = new Map<string, Webhook>();

function signerOf(secret: string): Webhook {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size > 10_000) signers.clear();
    signers.set(secret, (signer = new Webhook(secret)));
  }
  return signer;
}

/**
 * Standard Webhooks headers for one attempt: `webhook-id` (the delivery ID, the same on every retry),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`, one per
 * secret, space separated, so a rotated-out secret keeps verifying during its grace period).
 */
export function signatureHeaders(secrets: readonly string[], deliveryId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => signerOf(secret).sign(deliveryId, at, body)).join(' '),
  };
}

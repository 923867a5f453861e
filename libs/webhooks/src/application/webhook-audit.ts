import type { AuditEntryInput } from '#core';

// Audit entries of endpoint changes. Never a secret: no signing secret, and of the URL only its origin (a receiver's
// path or query may carry a token, as chat webhooks' do).

export type WebhookAuditAction =
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'webhook.enabled'
  | 'webhook.disabled'
  | 'webhook.secret_rotated'
  | 'webhook.test_sent'
  | 'webhook.delivery_retried'
  | 'webhook.auto_disabled';

/** `https://hooks.example.com` of `https://user:pw@hooks.example.com/T0/B0/x?token=y`. */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

export function webhookAudit(action: WebhookAuditAction, endpointId: string, details: Record<string, unknown> = {}): AuditEntryInput {
  return { action, targetType: 'webhook_endpoint', targetId: endpointId, details };
}

import type { RateLimitConfig } from '#core';

export type RateLimitPolicyName = 'default' | 'createArticle' | 'publicFeedback';

export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Who shares one budget: the API key, or the client IP on public routes. */
  readonly per: 'key' | 'ip';
}

/** The policies of CONTRACT §10, sized from configuration. */
export function rateLimitPolicies(config: RateLimitConfig): Record<RateLimitPolicyName, RateLimitPolicy> {
  return {
    default: { limit: config.requestsPerMinute, windowSeconds: 60, per: 'key' },
    createArticle: { limit: config.createArticlesPerHour, windowSeconds: 3600, per: 'key' },
    publicFeedback: { limit: config.publicFeedbackPerMinute, windowSeconds: 60, per: 'ip' },
  };
}

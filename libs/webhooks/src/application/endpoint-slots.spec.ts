import { describe, expect, it } from '@jest/globals';
import { AppConfig } from '#core';
import { EndpointSlots } from './endpoint-slots.js';

const webhooks = AppConfig.fromEnv({ APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/hc-slots', WEBHOOK_ENDPOINT_CONCURRENCY: '2' }).webhooks;

describe('EndpointSlots', () => {
  it('caps deliveries per endpoint, independently for each endpoint, and frees a slot on release', () => {
    const slots = new EndpointSlots(webhooks);
    expect([slots.tryAcquire('a'), slots.tryAcquire('a'), slots.tryAcquire('a')]).toEqual([true, true, false]);
    expect(slots.tryAcquire('b')).toBe(true);
    slots.release('a');
    expect(slots.tryAcquire('a')).toBe(true);
    expect(slots.tryAcquire('a')).toBe(false);
  });

  it('a release without an acquire does not open extra slots', () => {
    const slots = new EndpointSlots(webhooks);
    slots.release('c');
    expect([slots.tryAcquire('c'), slots.tryAcquire('c'), slots.tryAcquire('c')]).toEqual([true, true, false]);
  });
});

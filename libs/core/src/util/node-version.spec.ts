import { describe, expect, it } from '@jest/globals';
import { unsupportedNodeWarning } from './node-version.js';

describe('unsupportedNodeWarning', () => {
  it.each(['22.12.0', '22.23.3', '24.1.0', '26.0.0'])('accepts Node %s', (version) => {
    expect(unsupportedNodeWarning(version)).toBeNull();
  });

  it.each(['20.20.2', '22.11.0', '18.20.0'])('warns on Node %s, naming the supported line', (version) => {
    expect(unsupportedNodeWarning(version)).toContain('22.12 or newer');
  });
});

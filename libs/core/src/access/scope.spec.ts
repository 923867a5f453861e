import { describe, expect, it } from '@jest/globals';
import { DomainError, InsufficientScopeError } from '../errors/domain-error.js';
import { Principal } from './principal.js';
import { effectiveScopes, isScope, type Scope, SCOPES } from './scope.js';

const sorted = (scopes: Iterable<Scope>): Scope[] => [...scopes].sort();

describe('SCOPES', () => {
  it('lists the six scopes of the source document', () => {
    expect(sorted(SCOPES)).toEqual(
      sorted(['content:read', 'content:write', 'content:publish', 'analytics:read', 'conversations:read', 'webhooks:manage']),
    );
  });

  it('isScope recognises exactly those strings', () => {
    for (const scope of SCOPES) expect(isScope(scope)).toBe(true);
    for (const value of ['', 'content', 'content:*', 'CONTENT:READ', 'content:read ', 'admin', 'webhooks:read', 'toString', '__proto__']) {
      expect(isScope(value)).toBe(false);
    }
  });
});

describe('effectiveScopes', () => {
  it('null (legacy key) grants every scope', () => {
    expect(sorted(effectiveScopes(null))).toEqual(sorted(SCOPES));
  });

  it('an empty list grants nothing', () => {
    expect(effectiveScopes([]).size).toBe(0);
  });

  it.each([
    [['content:read'], ['content:read']],
    [['content:write'], ['content:read', 'content:write']],
    [['content:publish'], ['content:publish', 'content:read']],
    [['content:write', 'content:publish'], ['content:publish', 'content:read', 'content:write']],
    [['analytics:read'], ['analytics:read']],
    [['conversations:read'], ['conversations:read']],
    [['webhooks:manage'], ['webhooks:manage']],
    [['content:read', 'content:write'], ['content:read', 'content:write']],
    [['webhooks:manage', 'content:write'], ['content:read', 'content:write', 'webhooks:manage']],
  ] as Array<[Scope[], Scope[]]>)('%j grants %j', (granted, expected) => {
    expect(sorted(effectiveScopes(granted))).toEqual(sorted(expected));
  });

  it('no scope implies content:write, content:publish or any non-content scope', () => {
    for (const scope of SCOPES) {
      const effective = effectiveScopes([scope]);
      for (const other of SCOPES) {
        if (other === scope) continue;
        const implied = other === 'content:read' && (scope === 'content:write' || scope === 'content:publish');
        expect({ scope, other, has: effective.has(other) }).toEqual({ scope, other, has: implied });
      }
    }
  });

  it('tolerates duplicates and does not mutate its input', () => {
    const granted: Scope[] = ['content:write', 'content:write'];
    expect(sorted(effectiveScopes(granted))).toEqual(['content:read', 'content:write']);
    expect(granted).toEqual(['content:write', 'content:write']);
  });

  it('returns a fresh set each time (one key cannot widen another)', () => {
    const first = effectiveScopes(null) as Set<Scope>;
    first.delete('webhooks:manage');
    expect(effectiveScopes(null).has('webhooks:manage')).toBe(true);
  });
});

describe('Principal', () => {
  it('keeps the key id', () => {
    expect(new Principal('key_1', []).keyId).toBe('key_1');
  });

  it('names the key as the audit actor unless told otherwise', () => {
    expect(new Principal('key_1', ['content:read']).actor).toEqual({ kind: 'api_key', id: 'key_1', label: null, ip: null });
    const actor = { kind: 'api_key', id: 'key_1', label: null, ip: '203.0.113.7' } as const;
    expect(new Principal('key_1', ['content:read'], actor).actor).toEqual(actor);
  });

  it('an admin has every scope and is named by id, email and address', () => {
    const admin = Principal.admin('adm_1', 'ada@example.com', '198.51.100.4');
    for (const scope of SCOPES) expect(admin.has(scope)).toBe(true);
    expect(admin.granted).toBeNull();
    expect(admin.actor).toEqual({ kind: 'admin', id: 'adm_1', label: 'ada@example.com', ip: '198.51.100.4' });
  });

  it('the service acts as the system', () => {
    expect(Principal.service().actor.kind).toBe('system');
  });

  it('has() follows the implication rules', () => {
    const writer = new Principal('key_w', ['content:write']);
    expect(writer.has('content:write')).toBe(true);
    expect(writer.has('content:read')).toBe(true);
    expect(writer.has('content:publish')).toBe(false);
    expect(writer.has('analytics:read')).toBe(false);
  });

  it('a legacy key (null scopes) has every scope', () => {
    const legacy = new Principal('key_legacy', null);
    for (const scope of SCOPES) expect(legacy.has(scope)).toBe(true);
    expect(() => legacy.require('webhooks:manage')).not.toThrow();
  });

  it('require() passes for a held scope and throws insufficient_scope naming a missing one', () => {
    const reader = new Principal('key_r', ['content:read']);
    expect(() => reader.require('content:read')).not.toThrow();
    let thrown: unknown;
    try {
      reader.require('content:publish');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InsufficientScopeError);
    expect((thrown as DomainError).code).toBe('insufficient_scope');
    expect((thrown as InsufficientScopeError).scope).toBe('content:publish');
    expect((thrown as Error).message).toContain('content:publish');
  });

  it('is not affected by later changes to the granted array', () => {
    const granted: Scope[] = ['content:read'];
    const principal = new Principal('key_1', granted);
    granted.push('webhooks:manage');
    expect(principal.has('webhooks:manage')).toBe(false);
  });
});

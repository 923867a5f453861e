// The framework-free part of libs/core, for domain code: errors, IDs, scopes, storable text. Imports nothing from
// Nest, TypeORM or class-validator, so domain layers may depend on it.
export { ERROR_CODES, type ErrorCode } from './errors/error-code.js';
export {
  ConflictError,
  DomainError,
  type ErrorDetail,
  InsufficientScopeError,
  InvalidStateError,
  NotFoundError,
  ValidationError,
} from './errors/domain-error.js';
export { newId, isId, type IdPrefix } from './ids/id.js';
export { Principal } from './access/principal.js';
export { isScope, type Scope, SCOPES } from './access/scope.js';
export { ALL_EVENTS, EVENT_TYPES, type EventType, isEventType } from './events/event-type.js';
export { EVENT_READ_SCOPES, mayReceiveEvent } from './events/event-access.js';
export { findUnstorableText, isStorableText, toStorableText, unstorableTextError, unstorableTextReason } from './text/storable-text.js';

// The public face of libs/gateway (API keys, authentication, rate limits, idempotency and the HTTP plumbing
// every request passes through): apps and other libs import only from here.
export { GatewayModule } from './gateway.module.js';
export { GatewayJobsModule } from './jobs/gateway-jobs.module.js';

export { ApiKey, API_KEY_PREFIX } from './api-keys/domain/api-key.js';
export { CreateApiKeyUseCase } from './api-keys/application/create-api-key.use-case.js';
export { CreateInitialApiKeyUseCase } from './api-keys/application/create-initial-api-key.use-case.js';
export { ListApiKeysUseCase } from './api-keys/application/list-api-keys.use-case.js';
export { RevokeApiKeyUseCase } from './api-keys/application/revoke-api-key.use-case.js';

export { CurrentPrincipal, Public, RequireScopes, SECURITY_SCHEME } from './auth/auth.decorators.js';
export { AuthGuard } from './auth/auth.guard.js';
export { RouteScopesVerifier, UndeclaredRouteScopeError } from './auth/route-scopes.verifier.js';

export { RateLimit, RateLimitGuard } from './rate-limit/rate-limit.guard.js';
export { RateLimiter } from './rate-limit/rate-limiter.port.js';

export { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
export { PruneIdempotencyKeysUseCase } from './idempotency/application/prune-idempotency-keys.use-case.js';

export { HTTP_STATUS_BY_CODE } from './http/error-response.js';
export { ERROR_CATALOG, ERROR_DOCS_PATH, errorDocUrl, errorEnvelope } from './http/error-catalog.js';
export { HttpErrorFilter, requestIdOfResponse } from './http/http-error.filter.js';
export { JsonBodyMiddleware, MAX_BODY_BYTES } from './http/json-body.middleware.js';
export { requestLogging } from './http/request-logging.js';
export { createValidationPipe } from './http/validation.js';
export { corsDelegate } from './http/cors.js';

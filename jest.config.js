/** Jest 30 in ESM mode (run through `npm test`, which passes --experimental-vm-modules). */
const common = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: {
    '^#core$': '<rootDir>/libs/core/src/index.ts',
    '^#core/domain$': '<rootDir>/libs/core/src/domain.ts',
    '^#gateway$': '<rootDir>/libs/gateway/src/index.ts',
    '^#content$': '<rootDir>/libs/content/src/index.ts',
    '^#webhooks$': '<rootDir>/libs/webhooks/src/index.ts',
    '^#tasks$': '<rootDir>/libs/tasks/src/index.ts',
    '^#feedback$': '<rootDir>/libs/feedback/src/index.ts',
    '^#admin$': '<rootDir>/libs/admin/src/index.ts',
    '^#migrations$': '<rootDir>/migrations/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.tsx?$': ['ts-jest', { useESM: true, diagnostics: false }] },
  testEnvironment: 'node',
};

export default {
  // Integration and end-to-end suites boot the real service against real PostgreSQL and Redis.
  testTimeout: 60_000,
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.{ts,tsx}'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};

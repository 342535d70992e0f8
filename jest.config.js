/** Tests run TypeScript directly through swc; `make lint` is the type check. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/internal'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  testTimeout: 60000,
  // Integration suites mount, create netns and start shims: each owns its temp root, but they share
  // the host's CPU; two workers on a 2-core machine.
  maxWorkers: 2,
  // Removes the empty /k8s.io cgroup parents this run created (test/harness/global_cgroups.ts).
  globalSetup: '<rootDir>/test/harness/global_setup.ts',
  globalTeardown: '<rootDir>/test/harness/global_teardown.ts',
  // A full GC before each file keeps workers small enough to exit in time (see the file).
  setupFilesAfterEnv: ['<rootDir>/test/harness/collect_between_files.ts'],
};

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
  // Time a worker has to exit after the last file before jest kills it (500 ms by default). A worker
  // ends at 400-700 MiB RSS, its heap nearly all garbage, with no handle left open; a Node process that
  // size takes ~250 ms here from its last JavaScript to gone, longer beside another one exiting, so
  // jest killed one at the end of every run ("A worker process has failed to exit gracefully").
  // A worker that really hangs (a leaked handle) is still killed, with the same message, after this.
  workerGracefulExitTimeout: 5000,
};

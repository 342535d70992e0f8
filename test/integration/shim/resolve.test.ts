// Runtime name → shim binary, and the shim's `start` output, per the Runtime v2 rules.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveShimBinary, ShimBinaryResolver, shimBinaryName } from '../../../internal/runtime/v2/resolve';
import { parseStartOutput } from '../../../internal/runtime/v2/shim_process';

it('maps URI-like runtime names to containerd-shim-<a>-<b>', () => {
  expect(shimBinaryName('io.containerd.runc.v2')).toBe('containerd-shim-runc-v2');
  expect(shimBinaryName('io.foo.bar.runc2.v2.baz')).toBe('containerd-shim-v2-baz');
  expect(shimBinaryName('runc')).toBeUndefined();
  expect(shimBinaryName('.x.y')).toBeUndefined();
});

it('finds the shim on PATH, takes absolute paths as they are, and names what is missing', () => {
  expect(resolveShimBinary('io.containerd.runc.v2')).toMatch(/\/containerd-shim-runc-v2$/);
  const dir = mkdtempSync(join(tmpdir(), 'berth-resolve-'));
  try {
    const fake = join(dir, 'containerd-shim-fake-v1');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    expect(resolveShimBinary('io.x.fake.v1', dir)).toBe(fake);
    expect(resolveShimBinary(fake)).toBe(fake);
    expect(() => resolveShimBinary('io.x.other.v1', dir)).toThrow(/io\.x\.other\.v1.*containerd-shim-other-v1/);
    expect(() => resolveShimBinary('plainname', dir)).toThrow(/invalid runtime name/);
    expect(() => resolveShimBinary(join(dir, 'absent'))).toThrow(/not installed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps a resolved shim while it is executable and looks it up again once it is gone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-resolve-'));
  try {
    const [first, second] = [join(dir, 'a'), join(dir, 'b')];
    for (const d of [first, second]) mkdirSync(d);
    const install = (d: string) => {
      writeFileSync(join(d, 'containerd-shim-fake-v1'), '#!/bin/sh\n');
      chmodSync(join(d, 'containerd-shim-fake-v1'), 0o755);
    };
    install(second);
    const resolver = new ShimBinaryResolver(`${first}:${second}`);
    expect(resolver.resolve('io.x.fake.v1')).toBe(join(second, 'containerd-shim-fake-v1'));
    install(first); // kept: the answer stands while it is still executable, as containerd keeps it
    expect(resolver.resolve('io.x.fake.v1')).toBe(join(second, 'containerd-shim-fake-v1'));
    unlinkSync(join(second, 'containerd-shim-fake-v1'));
    expect(resolver.resolve('io.x.fake.v1')).toBe(join(first, 'containerd-shim-fake-v1'));
    unlinkSync(join(first, 'containerd-shim-fake-v1'));
    expect(() => resolver.resolve('io.x.fake.v1')).toThrow(/containerd-shim-fake-v1.*not installed/);
    writeFileSync(join(second, 'containerd-shim-fake-v1'), 'not executable');
    expect(() => resolver.resolve('io.x.fake.v1')).toThrow(/not installed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('reads a bare address or the version 2 JSON from start', () => {
  expect(parseStartOutput('unix:///run/containerd/s/abc')).toBe('unix:///run/containerd/s/abc');
  expect(parseStartOutput('{"version":2,"address":"unix:///x","protocol":"ttrpc"}')).toBe('unix:///x');
  expect(() => parseStartOutput('{"version":2,"address":"unix:///x","protocol":"grpc"}')).toThrow(/grpc/);
  expect(() => parseStartOutput('')).toThrow(/no address/);
});

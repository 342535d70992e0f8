// Version: which CRI API and which runtime berth is (kubelet logs it; crictl version prints it).
import type * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../api/cri';
import type { VersionRequest__Output } from '../../api/gen/runtime/v1/VersionRequest';
import type { VersionResponse } from '../../api/gen/runtime/v1/VersionResponse';
import type { CriService } from './service';

// The version of the kubelet-runtime API berth implements (containerd answers the same).
export const KUBE_API_VERSION = '0.1.0';
export const RUNTIME_NAME = 'berth';
export const CRI_API_VERSION = 'v1';

let packageVersion: string | undefined;

/** berth's own version, from its package.json. */
export function berthVersion(): string {
  if (packageVersion === undefined) {
    const pkg = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    packageVersion = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  }
  return packageVersion;
}

/**
 * The CRI package a call came in through: "v1alpha2" for "/runtime.v1alpha2.RuntimeService/Version".
 * One handler serves both packages, and each answers with its own name, as containerd 1.6's Version
 * and AlphaVersion do.
 */
export function criApiVersionOf(path: string): string {
  return /^\/runtime\.(v1alpha2)\./.exec(path)?.[1] ?? CRI_API_VERSION;
}

export async function version(
  _svc: CriService,
  _req: VersionRequest__Output,
  call: grpc.ServerUnaryCall<VersionRequest__Output, VersionResponse>,
): Promise<VersionResponse> {
  return {
    version: KUBE_API_VERSION,
    runtime_name: RUNTIME_NAME,
    runtime_version: berthVersion(),
    runtime_api_version: criApiVersionOf(call.getPath()),
  };
}

// Version: which CRI API and which runtime berth is (kubelet logs it; crictl version prints it).
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

export async function version(_svc: CriService, _req: VersionRequest__Output): Promise<VersionResponse> {
  return {
    version: KUBE_API_VERSION,
    runtime_name: RUNTIME_NAME,
    runtime_version: berthVersion(),
    runtime_api_version: CRI_API_VERSION,
  };
}

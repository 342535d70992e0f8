// The kubelet's own HTTPS API as a Kubernetes user reaches it (kubectl logs/exec/port-forward are
// proxied to these very paths): /pods for the pod statuses of a standalone kubelet, /run,
// /containerLogs, /stats/summary. Its certificate is self-signed, on 127.0.0.1 only.
import https from 'node:https';
import type { Pod, PodList } from './pod_types';

/** Bound on any one answer read into memory. */
const MAX_BODY_BYTES = 16 << 20;

export interface Reply {
  statusCode: number;
  body: string;
}

export class KubeletApi {
  constructor(readonly baseUrl: string) {}

  request(path: string, method = 'GET', timeoutMs = 30_000): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = https.request(`${this.baseUrl}${path}`, { method, rejectUnauthorized: false, timeout: timeoutMs }, (res) => {
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) req.destroy(new Error(`${path}: answer over ${MAX_BODY_BYTES} bytes`));
          else parts.push(c);
        });
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  async ok(path: string, method = 'GET', timeoutMs?: number): Promise<string> {
    const r = await this.request(path, method, timeoutMs);
    if (r.statusCode !== 200) throw new Error(`${method} ${path}: HTTP ${r.statusCode}: ${r.body.slice(0, 500)}`);
    return r.body;
  }

  async healthy(): Promise<boolean> {
    try {
      return (await this.request('/healthz', 'GET', 2000)).body.trim() === 'ok';
    } catch {
      return false;
    }
  }

  async pods(): Promise<Pod[]> {
    return (JSON.parse(await this.ok('/pods')) as PodList).items ?? [];
  }

  async pod(namespace: string, name: string): Promise<Pod | undefined> {
    return (await this.pods()).find((p) => p.metadata.namespace === namespace && p.metadata.name === name);
  }

  /** POST /run: runs `command` in the container and answers its combined output. */
  run(namespace: string, pod: string, container: string, command: string[]): Promise<string> {
    // The kubelet splits its one `cmd` parameter on spaces: no argument may hold one.
    if (command.some((c) => c === '' || /\s/.test(c))) throw new Error(`/run cannot pass ${JSON.stringify(command)}: an argument is empty or holds a space`);
    return this.ok(`/run/${namespace}/${pod}/${container}?cmd=${encodeURIComponent(command.join(' '))}`, 'POST');
  }

  containerLogs(namespace: string, pod: string, container: string, query = ''): Promise<string> {
    return this.ok(`/containerLogs/${namespace}/${pod}/${container}${query ? `?${query}` : ''}`);
  }

  /** https URL of a streaming endpoint (exec/attach/portForward) for the harness's streaming client. */
  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }
}

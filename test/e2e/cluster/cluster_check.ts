// What one cluster check is: run by kubectl in a namespace of its own (the runner creates it and
// deletes it afterwards, which also deletes every pod and controller the check made), throwing
// with what the user would have seen when it fails.
import { BUSYBOX_IMAGE } from '../../harness/images';
import type { Kubectl } from './kubectl';

export interface ClusterContext {
  /** kubectl in the check's own namespace. */
  kubectl: Kubectl;
  namespace: string;
  /** The run's temp dir for this runtime (files for kubectl cp). */
  scratchDir: string;
  log(line: string): void;
  /** Named durations a user waits for (e.g. "kubectl run -> Ready"), in ms. */
  latencies: Map<string, number>;
}

export interface ClusterCheck {
  id: string;
  title: string;
  run(ctx: ClusterContext): Promise<void>;
}

export function expect(cond: boolean, message: string): void {
  if (!cond) throw new Error(message);
}

/** The test images are imported into each runtime beforehand: never pulled. */
export const IMAGE = BUSYBOX_IMAGE;
export const PULL_NEVER = ['--image-pull-policy=Never'];

/** A container running a busybox httpd serving `text` at /index.html on port 8080. */
export function webContainer(name: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    image: IMAGE,
    imagePullPolicy: 'Never',
    command: ['sh', '-c', `mkdir -p /www && echo "${text}" > /www/index.html && exec httpd -f -p 8080 -h /www`],
    ports: [{ containerPort: 8080 }],
    readinessProbe: { httpGet: { path: '/index.html', port: 8080 }, periodSeconds: 1 },
    ...extra,
  };
}

/** `kubectl wait` for a condition, bounded (against hanging, not as a timing assertion). */
export async function waitCondition(ctx: ClusterContext, what: string, condition: string, timeoutS = 120): Promise<number> {
  const start = Date.now();
  await ctx.kubectl.run(['wait', `--for=condition=${condition}`, what, `--timeout=${timeoutS}s`], { timeoutMs: (timeoutS + 30) * 1000 });
  return Date.now() - start;
}

/** A pod's containers' states, for failure messages. */
export async function describePods(ctx: ClusterContext, selector?: string): Promise<string> {
  const r = await ctx.kubectl.run(['get', 'pods', '-o', 'wide', ...(selector ? ['-l', selector] : [])], { allowFailure: true });
  return r.stdout.trim() || r.stderr.trim();
}

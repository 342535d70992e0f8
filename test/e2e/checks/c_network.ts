// c. hostPort reachable from the host on 127.0.0.1 (the CNI portmap plugin, driven by the port
// mappings kubelet puts in the sandbox config), and pod-to-pod traffic over the runtime's bridge.
import http from 'node:http';
import { expect, startReadyPod, type Check } from '../check';
import { freePort } from '../../harness/registry';
import { fullName, manifest, NAMESPACE } from '../pods';

function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length + body.length > 65536 ? '' : c));
      res.on('end', () => resolve(`${res.statusCode} ${body}`));
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer in 5 s`)));
    req.on('error', reject);
  });
}

const webServer = (name: string, text: string, hostPort?: number) => ({
  name,
  command: ['sh', '-c', `mkdir -p /www && echo ${text} > /www/index.html && exec httpd -f -p 8080 -h /www`],
  ports: [{ containerPort: 8080, ...(hostPort ? { hostPort, hostIP: '127.0.0.1' } : {}) }],
  readinessProbe: { httpGet: { path: '/index.html', port: 8080 }, periodSeconds: 1 },
});

export const hostPort: Check = {
  id: 'c1',
  title: 'hostPort reachable from the host on 127.0.0.1',
  async run(ctx) {
    const port = await freePort();
    await startReadyPod(ctx, manifest({ name: 'hostport', spec: { containers: [webServer('web', 'via-hostport', port)] } }));
    let answer = '';
    let lastErr = '';
    // The rule is in place before the sandbox is Ready; a few tries cover a slow first SYN only.
    for (let i = 0; i < 10 && answer === ''; i++) {
      try {
        answer = await httpGet(`http://127.0.0.1:${port}/index.html`);
      } catch (err) {
        lastErr = err instanceof Error ? err.message : String(err);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    expect(answer === '200 via-hostport\n', `GET 127.0.0.1:${port}: ${answer ? JSON.stringify(answer) : lastErr}`);
  },
};

export const podToPod: Check = {
  id: 'c2',
  title: 'pod-to-pod over the bridge (pod IP from /pods)',
  async run(ctx) {
    const server = await startReadyPod(ctx, manifest({ name: 'p2p-server', spec: { containers: [webServer('web', 'from-server')] } }));
    const ip = server.status?.podIP ?? '';
    expect(ip.startsWith(`${ctx.runtime.cni.subnetPrefix}.`), `server podIP ${JSON.stringify(ip)} is not in the bridge subnet ${ctx.runtime.cni.subnet}`);
    const client = await startReadyPod(ctx, manifest({ name: 'p2p-client', spec: { containers: [{ name: 'main', command: ['sleep', '3600'] }] } }));
    expect(client.status?.podIP !== ip, 'both pods have the same IP');
    const got = await ctx.kubelet.api.run(NAMESPACE, fullName('p2p-client'), 'main', ['wget', '-q', '-O', '-', `http://${ip}:8080/index.html`]);
    expect(got === 'from-server\n', `wget from the client pod: ${JSON.stringify(got)}`);
  },
};

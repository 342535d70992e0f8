// A Kubernetes 1.20 control plane on 127.0.0.1 only, all of it under one temp dir: etcd (Debian's
// etcd-server) on loopback client and peer ports, kube-apiserver (self-signed serving cert, a
// static admin token, AlwaysAllow, no insecure port, no ServiceAccount admission since no token
// controller runs, the kubelet reached by its Hostname "localhost"), kube-controller-manager and
// kube-scheduler with a kubeconfig and no serving ports. Each process is pushed on the cleanup
// stack as soon as it exists.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CleanupStack } from '../../bench/cleanup';
import { freePort } from '../../harness/registry';
import { startProcess, waitHealthy, type ClusterProcess } from './processes';

export interface ClusterBinaries {
  dir: string;
  etcd: string;
  apiserver: string;
  controllerManager: string;
  scheduler: string;
  kubectl: string;
  kubelet: string;
}

export function clusterBinaries(dir: string): ClusterBinaries {
  return {
    dir,
    etcd: join(dir, 'etcd'),
    apiserver: join(dir, 'kube-apiserver'),
    controllerManager: join(dir, 'kube-controller-manager'),
    scheduler: join(dir, 'kube-scheduler'),
    kubectl: join(dir, 'kubectl'),
    kubelet: join(dir, 'kubelet'),
  };
}

export interface ControlPlane {
  /** https://127.0.0.1:PORT */
  server: string;
  /** A kubeconfig with the admin token, for kubectl, the controllers and the kubelet. */
  kubeconfig: string;
  processes: ClusterProcess[];
}

function writeKubeconfig(path: string, server: string, token: string): void {
  // JSON is YAML: client-go reads it as any kubeconfig. The serving cert is self-signed.
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'e2e', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'admin', user: { token } }],
    contexts: [{ name: 'e2e', context: { cluster: 'e2e', user: 'admin', namespace: 'default' } }],
    'current-context': 'e2e',
  };
  writeFileSync(path, JSON.stringify(config, null, 2), { mode: 0o600 });
}

export async function startControlPlane(bin: ClusterBinaries, dir: string, cleanup: CleanupStack, log: (line: string) => void): Promise<ControlPlane> {
  mkdirSync(dir, { recursive: true });
  const processes: ClusterProcess[] = [];
  const started = <P extends ClusterProcess>(p: P): P => {
    processes.push(p);
    cleanup.push(`${p.name} (pid ${p.pid})`, () => p.stop());
    log(`${p.name} pid ${p.pid}, log ${p.logPath}`);
    return p;
  };

  const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const etcdPeerUrl = `http://127.0.0.1:${etcdPeer}`;
  const etcd = started(startProcess('etcd', bin.etcd, [
    '--name=e2e',
    `--data-dir=${join(dir, 'etcd-data')}`,
    `--listen-client-urls=${etcdUrl}`,
    `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=${etcdPeerUrl}`,
    `--initial-advertise-peer-urls=${etcdPeerUrl}`,
    `--initial-cluster=e2e=${etcdPeerUrl}`,
    '--initial-cluster-state=new',
  ], join(dir, 'etcd.log')));
  await waitHealthy(etcd, `${etcdUrl}/health`, '"health":"true"');

  const token = randomBytes(24).toString('hex');
  const tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${token},admin,admin,"system:masters"\n`, { mode: 0o600 });
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saKey = join(dir, 'sa.key');
  const saPub = join(dir, 'sa.pub');
  writeFileSync(saKey, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  const server = `https://127.0.0.1:${apiPort}`;
  const apiserver = started(startProcess('kube-apiserver', bin.apiserver, [
    `--etcd-servers=${etcdUrl}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${apiPort}`,
    '--insecure-port=0',
    // No "kubernetes" Service endpoints: they would name this loopback address, which Endpoints refuse.
    '--endpoint-reconciler-type=none',
    `--cert-dir=${join(dir, 'apiserver-pki')}`,
    `--token-auth-file=${tokenFile}`,
    '--authorization-mode=AlwaysAllow',
    `--service-account-key-file=${saPub}`,
    `--service-account-signing-key-file=${saKey}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    '--disable-admission-plugins=ServiceAccount',
    '--service-cluster-ip-range=10.0.0.0/24',
    '--kubelet-preferred-address-types=Hostname',
    '--allow-privileged=true',
    '--profiling=false',
  ], join(dir, 'kube-apiserver.log')));
  await waitHealthy(apiserver, `${server}/readyz`, 'ok', { authorization: `Bearer ${token}` });

  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server, token);
  const common = [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--port=0', '--secure-port=0', '--profiling=false'];
  started(startProcess('kube-controller-manager', bin.controllerManager, [...common, '--use-service-account-credentials=false'], join(dir, 'kube-controller-manager.log')));
  started(startProcess('kube-scheduler', bin.scheduler, common, join(dir, 'kube-scheduler.log')));
  return { server, kubeconfig, processes };
}

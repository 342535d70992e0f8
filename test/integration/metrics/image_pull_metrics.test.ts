// Image pulls on the Prometheus endpoint: a pull from a real registry (Debian's docker-registry on
// 127.0.0.1) counts once, adds the image's size as ImageStatus reports it, and times the pull and
// its unpack; a pull of an image the registry lacks counts as a failure.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { testImages } from '../../harness/images';
import { pushImage, startRegistry, type RunningRegistry } from '../../harness/registry';
import { metricsAddress, scrape, value } from './exposition';

jest.setTimeout(180_000);

describe('image pull metrics', () => {
  let registry: RunningRegistry;
  let hostsDir: string;
  let daemon: RunningBerthd;
  let client: CriClient;
  let address: string;

  beforeAll(async () => {
    const paths = await testImages();
    registry = await startRegistry();
    await pushImage(registry.url, paths.pauseOci, 'metrics/pause:1');
    hostsDir = mkdtempSync(join(tmpdir(), 'berth-metrics-hosts-'));
    mkdirSync(join(hostsDir, registry.host));
    writeFileSync(
      join(hostsDir, registry.host, 'hosts.toml'),
      `server = "${registry.url}"\n\n[host."${registry.url}"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    daemon = await startBerthd({ configToml: `[registry]\nconfig_path = "${hostsDir}"\n\n[metrics]\naddress = "127.0.0.1:0"\n` });
    client = criClient(daemon.socket);
    address = metricsAddress(daemon.stderr());
  });

  afterAll(async () => {
    client?.close();
    await daemon?.stop();
    await registry?.stop();
    if (hostsDir) rmSync(hostsDir, { recursive: true, force: true });
  });

  it('counts a pull, its bytes (the image size ImageStatus shows), its time and its unpack', async () => {
    const before = await scrape(address);
    const image = `${registry.host}/metrics/pause:1`;
    await client.image.PullImage({ image: { image } });
    const after = await scrape(address);
    const { image: status } = await client.image.ImageStatus({ image: { image } });

    expect(value(after, 'berth_image_pulls_total', { result: 'success' }) - value(before, 'berth_image_pulls_total', { result: 'success' })).toBe(1);
    expect(value(after, 'berth_image_pull_bytes_total') - value(before, 'berth_image_pull_bytes_total')).toBe(Number(status!.size));
    expect(value(after, 'berth_image_pull_duration_seconds_count') - value(before, 'berth_image_pull_duration_seconds_count')).toBe(1);
    expect(value(after, 'berth_image_unpack_duration_seconds_count') - value(before, 'berth_image_unpack_duration_seconds_count')).toBe(1);
    expect(value(after, 'berth_image_pull_duration_seconds_sum')).toBeGreaterThan(0);
  });

  it('counts a pull the registry cannot serve as a failure, with the code the client got', async () => {
    const before = await scrape(address);
    const err = await callError(client.image.PullImage({ image: { image: `${registry.host}/metrics/absent:1` } }));
    expect(err.code).toBe(GrpcStatus.NOT_FOUND);
    const after = await scrape(address);
    const handled = { grpc_type: 'unary', grpc_service: 'runtime.v1.ImageService', grpc_method: 'PullImage', grpc_code: 'NotFound' };
    expect(value(after, 'berth_image_pulls_total', { result: 'failure' }) - value(before, 'berth_image_pulls_total', { result: 'failure' })).toBe(1);
    expect(value(after, 'grpc_server_handled_total', handled) - value(before, 'grpc_server_handled_total', handled)).toBe(1);
    expect(value(after, 'berth_image_pull_bytes_total')).toBe(value(before, 'berth_image_pull_bytes_total'));
  });
});

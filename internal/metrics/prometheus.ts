// The Prometheus recorder: berth's counters and histograms in a prom-client registry, with the
// process metrics prom-client collects (RSS, CPU, open fds, event-loop lag, heap). Only loaded when
// `[metrics] address` is set (see serve.ts), so an idle berthd without metrics never loads it.
// Every label takes its values from a closed set (service and method names from the proto
// definitions, status codes, CRI states, exit reasons), so no client can grow the series count.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { grpcCodeName } from './grpc_code_names';
import type { MetricsRecorder, RuntimeStateCounts } from './recorder';

// Prometheus' default buckets, which go-grpc-prometheus uses, plus the long tail of image pulls and
// sandbox starts.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface PrometheusRecorder extends MetricsRecorder {
  readonly registry: Registry;
}

export function createPrometheusRecorder(): PrometheusRecorder {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Counted from the stores at each scrape (a walk over in-memory maps), never kept up to date.
  let stateSource: (() => RuntimeStateCounts) | undefined;
  const state = (): RuntimeStateCounts | undefined => stateSource?.();

  const rpcLabels = ['grpc_type', 'grpc_service', 'grpc_method'] as const;
  const started = new Counter({
    name: 'grpc_server_started_total',
    help: 'Total number of RPCs started on the server.',
    labelNames: rpcLabels,
    registers: [registry],
  });
  const handled = new Counter({
    name: 'grpc_server_handled_total',
    help: 'Total number of RPCs completed on the server, regardless of success or failure.',
    labelNames: [...rpcLabels, 'grpc_code'],
    registers: [registry],
  });
  const handling = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.',
    labelNames: rpcLabels,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  new Gauge({
    name: 'berth_pod_sandboxes',
    help: 'Pod sandboxes berth knows, by CRI state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [s, n] of Object.entries(state()?.pods ?? {})) this.set({ state: s }, n);
    },
  });
  new Gauge({
    name: 'berth_containers',
    help: 'Containers berth knows, by CRI state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [s, n] of Object.entries(state()?.containers ?? {})) this.set({ state: s }, n);
    },
  });
  new Gauge({
    name: 'berth_shims_running',
    help: 'Runtime v2 shims berth has live tasks in (one per pod).',
    registers: [registry],
    collect() {
      this.set(state()?.shims ?? 0);
    },
  });

  const pulls = new Counter({
    name: 'berth_image_pulls_total',
    help: 'Image pulls that ended, by result (success, failure).',
    labelNames: ['result'],
    registers: [registry],
  });
  const pullBytes = new Counter({
    name: 'berth_image_pull_bytes_total',
    help: 'Compressed size (manifest, config and layers) of the images pulled successfully.',
    registers: [registry],
  });
  const pullSeconds = new Histogram({
    name: 'berth_image_pull_duration_seconds',
    help: 'Time of successful image pulls, from the request to the image recorded (unpack included).',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const unpackSeconds = new Histogram({
    name: 'berth_image_unpack_duration_seconds',
    help: "Time of a pull's unpack into snapshots (it runs alongside the layer downloads and waits for each).",
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const exits = new Counter({
    name: 'berth_container_exits_total',
    help: 'Container exits recorded, by reason (Completed, Error, OOMKilled, Unknown).',
    labelNames: ['reason'],
    registers: [registry],
  });
  const cni = new Histogram({
    name: 'berth_cni_operation_duration_seconds',
    help: 'Time of pod network setups and teardowns (every attachment of the CNI chain), by result.',
    labelNames: ['operation', 'result'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const sessions = new Counter({
    name: 'berth_streaming_sessions_total',
    help: 'Streaming sessions (exec, attach, portforward) begun on the streaming server.',
    labelNames: ['kind'],
    registers: [registry],
  });
  const activeSessions = new Gauge({
    name: 'berth_streaming_sessions_active',
    help: 'Streaming sessions (exec, attach, portforward) open now.',
    labelNames: ['kind'],
    registers: [registry],
  });
  // Pre-set the closed label sets, so a scrape shows zeros instead of missing series.
  for (const kind of ['exec', 'attach', 'portforward']) activeSessions.set({ kind }, 0);

  const result = (ok: boolean) => (ok ? 'success' : 'failure');
  return {
    registry,
    rpcStarted(service, method, type) {
      started.inc({ grpc_type: type, grpc_service: service, grpc_method: method });
    },
    rpcHandled(service, method, type, code, seconds) {
      const labels = { grpc_type: type, grpc_service: service, grpc_method: method };
      handled.inc({ ...labels, grpc_code: grpcCodeName(code) });
      handling.observe(labels, seconds);
    },
    imagePull(ok, seconds, bytes) {
      pulls.inc({ result: result(ok) });
      if (ok) {
        pullBytes.inc(bytes);
        pullSeconds.observe(seconds);
      }
    },
    imageUnpack(seconds) {
      unpackSeconds.observe(seconds);
    },
    containerExit(reason) {
      exits.inc({ reason });
    },
    cniOperation(op, ok, seconds) {
      cni.observe({ operation: op, result: result(ok) }, seconds);
    },
    streamingSession(kind) {
      sessions.inc({ kind });
      activeSessions.inc({ kind });
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        activeSessions.dec({ kind });
      };
    },
    setStateSource(source) {
      stateSource = source;
    },
  };
}

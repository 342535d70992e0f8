// The cluster checks in the order they run (ids k1..k8 in the table).
import type { ClusterCheck } from './cluster_check';
import { daemonSet, deployment, job } from './checks_controllers';
import { attach, copy, logsFollow, portForward, runAndExec } from './checks_pods';

export const CLUSTER_CHECKS: readonly ClusterCheck[] = [runAndExec, logsFollow, portForward, attach, copy, deployment, job, daemonSet];

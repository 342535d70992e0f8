// Every check, in the order of priority (its letter is the list item).
import type { Check } from '../check';
import { envArgsWorkingDir, initAndEmptyDir } from './a_workloads';
import { livenessExec, oomKilled, readinessHttpGet, restartAlways, restartNever, restartOnFailure } from './b_lifecycle';
import { hostPort, podToPod } from './c_network';
import { privilegedPod, restrictedContext } from './d_security';
import { containerLogs, execAndRun, portForwardCheck, statsSummary } from './e_kubelet_api';
import { deletionCleansUp, graceExpires, graceHonoured } from './f_termination';
import { logRotation } from './g_log_rotation';
import { kubeletRestarted, runtimeKilled } from './h_restarts';
import { deadContainerGc, imageGc } from './i_garbage_collection';

export const CHECKS: readonly Check[] = [
  initAndEmptyDir,
  envArgsWorkingDir,
  readinessHttpGet,
  livenessExec,
  restartNever,
  restartOnFailure,
  restartAlways,
  oomKilled,
  hostPort,
  podToPod,
  restrictedContext,
  privilegedPod,
  execAndRun,
  containerLogs,
  portForwardCheck,
  statsSummary,
  graceHonoured,
  graceExpires,
  deletionCleansUp,
  logRotation,
  runtimeKilled,
  kubeletRestarted,
  deadContainerGc,
  // Last: it restarts the kubelet with image GC thresholds that remove every image no pod uses.
  imageGc,
];

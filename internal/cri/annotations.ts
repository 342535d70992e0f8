// OCI spec annotation keys the CRI plugin writes, exactly as containerd 1.6 spells them in
// pkg/cri/annotations, so tools that read them (kata, NRI plugins, crictl inspect users) work
// unchanged against berth.

/** Value of ContainerType for a pod's pause container. */
export const ContainerTypeSandbox = 'sandbox';
/** Value of ContainerType for a workload container. */
export const ContainerTypeContainer = 'container';

export const ContainerType = 'io.kubernetes.cri.container-type';
export const SandboxID = 'io.kubernetes.cri.sandbox-id';

// Initial pod resources (sum of the containers'), passed by kubelet in PodSandboxConfig.linux.resources.
export const SandboxCPUPeriod = 'io.kubernetes.cri.sandbox-cpu-period';
export const SandboxCPUQuota = 'io.kubernetes.cri.sandbox-cpu-quota';
export const SandboxCPUShares = 'io.kubernetes.cri.sandbox-cpu-shares';
export const SandboxMem = 'io.kubernetes.cri.sandbox-memory';

export const SandboxLogDir = 'io.kubernetes.cri.sandbox-log-directory';
export const UntrustedWorkload = 'io.kubernetes.cri.untrusted-workload';
export const SandboxNamespace = 'io.kubernetes.cri.sandbox-namespace';
export const SandboxUID = 'io.kubernetes.cri.sandbox-uid';
export const SandboxName = 'io.kubernetes.cri.sandbox-name';
export const ContainerName = 'io.kubernetes.cri.container-name';
export const ImageName = 'io.kubernetes.cri.image-name';
/** The pause image, under containerd 2.0's key (1.6 and 1.7 write none; image-name is for workloads only). */
export const SandboxImageName = 'io.kubernetes.cri.podsandbox.image-name';
export const PodAnnotations = 'io.kubernetes.cri.pod-annotations';
export const WindowsHostProcess = 'microsoft.com/hostprocess-container';

// Original file: api/runtime/v1alpha2/api.proto


export interface ContainerStatsFilter {
  'id'?: (string);
  'pod_sandbox_id'?: (string);
  'label_selector'?: ({[key: string]: string});
}

export interface ContainerStatsFilter__Output {
  'id': (string);
  'pod_sandbox_id': (string);
  'label_selector': ({[key: string]: string});
}

// Original file: api/runtime/v1alpha2/api.proto


export interface PodSandboxStatsFilter {
  'id'?: (string);
  'label_selector'?: ({[key: string]: string});
}

export interface PodSandboxStatsFilter__Output {
  'id': (string);
  'label_selector': ({[key: string]: string});
}

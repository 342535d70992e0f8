// Original file: api/containerd/runtime/bootstrap/v1/bootstrap.proto

export const LogLevel = {
  LOG_LEVEL_INFO: 'LOG_LEVEL_INFO',
  LOG_LEVEL_TRACE: 'LOG_LEVEL_TRACE',
  LOG_LEVEL_DEBUG: 'LOG_LEVEL_DEBUG',
  LOG_LEVEL_WARN: 'LOG_LEVEL_WARN',
  LOG_LEVEL_ERROR: 'LOG_LEVEL_ERROR',
  LOG_LEVEL_FATAL: 'LOG_LEVEL_FATAL',
  LOG_LEVEL_PANIC: 'LOG_LEVEL_PANIC',
} as const;

export type LogLevel =
  | 'LOG_LEVEL_INFO'
  | 0
  | 'LOG_LEVEL_TRACE'
  | -8
  | 'LOG_LEVEL_DEBUG'
  | -4
  | 'LOG_LEVEL_WARN'
  | 4
  | 'LOG_LEVEL_ERROR'
  | 8
  | 'LOG_LEVEL_FATAL'
  | 10
  | 'LOG_LEVEL_PANIC'
  | 12

export type LogLevel__Output = typeof LogLevel[keyof typeof LogLevel]

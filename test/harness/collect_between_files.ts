// Jest setup file: each test file starts with its worker's garbage collected. On a machine with
// this much memory V8 lets a worker's heap grow to 400-700 MiB over ~70 files, almost all garbage
// (50-60 MiB left after a full collection, measured 2026-12-02); freeing that much took longer than
// the 500 ms jest-worker gives a worker to exit, which it then killed ("A worker process has failed
// to exit gracefully"). Collected here, no worker was killed, and the suite took as long.
import { v8Gc } from './v8_gc';

v8Gc()();

// Versioned schema. Append new migrations; never edit one that has shipped. Each runs in its own
// transaction together with the bump of PRAGMA user_version. A berthd refuses a database newer than
// its newest migration (db.ts migrate), so a migration is also how a change of the state berthd
// keeps outside the database (files, directories, FIFOs, the JSON in the rows) that an older berthd
// would misread is marked: with no SQL, if no table changes.

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'images, content leases, snapshots, sandboxes, containers',
    sql: `
      CREATE TABLE images (
        name        TEXT PRIMARY KEY,
        media_type  TEXT NOT NULL,
        digest      TEXT NOT NULL,
        size        INTEGER NOT NULL,
        config_digest TEXT NOT NULL,
        labels      TEXT NOT NULL DEFAULT '{}',
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX images_by_config ON images(config_digest);

      CREATE TABLE leases (
        id          TEXT PRIMARY KEY,
        created_at  INTEGER NOT NULL,
        labels      TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE lease_resources (
        lease_id    TEXT NOT NULL REFERENCES leases(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL,
        resource    TEXT NOT NULL,
        PRIMARY KEY (lease_id, kind, resource)
      );

      CREATE TABLE snapshots (
        key         TEXT PRIMARY KEY,
        id          INTEGER NOT NULL UNIQUE,
        kind        TEXT NOT NULL CHECK (kind IN ('active', 'committed', 'view')),
        parent      TEXT REFERENCES snapshots(key),
        labels      TEXT NOT NULL DEFAULT '{}',
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX snapshots_by_parent ON snapshots(parent);

      CREATE TABLE sandboxes (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        config      TEXT NOT NULL,
        metadata    TEXT NOT NULL,
        status      TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );

      CREATE TABLE containers (
        id          TEXT PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE,
        sandbox_id  TEXT NOT NULL,
        config      TEXT NOT NULL,
        metadata    TEXT NOT NULL,
        spec        TEXT NOT NULL,
        status      TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      );
      CREATE INDEX containers_by_sandbox ON containers(sandbox_id);
    `,
  },
  {
    version: 2,
    // Older berths, run on such state, stranded running containers' output (FIFOs looked for in
    // io/), lost every task that joined its pod's shim (no shim log FIFO in its bundle) and gave
    // new containers directories for /etc/hosts, hostname and resolv.conf: they now refuse it.
    description:
      'state of 2026-12-06: pod files in the pod root dir, container FIFOs beside the container state, ' +
      "a shim log FIFO only in the bundle a shim started in, temp mounts under the snapshotter's root",
    sql: '',
  },
];

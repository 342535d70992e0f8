// Image records in SQLite: name -> target descriptor + config digest (the image ID). Several names
// may share one ID (a tag and a digest reference of one pull, two tags of one image).
import type { Descriptor } from '../content/types';
import { isDigest } from '../content/digest';
import type { MetadataDB } from '../metadata/db';
import { fromJSON, toJSON } from '../metadata/json';
import { invalidArgument, notFound } from '../errdefs/errors';

export interface ImageRecord {
  /** Normalised reference, e.g. "docker.io/library/busybox:latest". */
  name: string;
  target: Descriptor;
  /** Digest of the image config: the image ID. */
  configDigest: string;
  labels: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewImage {
  name: string;
  target: Descriptor;
  configDigest: string;
  labels?: Record<string, string>;
}

interface Row {
  name: string;
  media_type: string;
  digest: string;
  size: number;
  config_digest: string;
  labels: string;
  created_at: number;
  updated_at: number;
}

const fromRow = (r: Row): ImageRecord => ({
  name: r.name,
  target: { mediaType: r.media_type, digest: r.digest, size: r.size },
  configDigest: r.config_digest,
  labels: fromJSON<Record<string, string>>(r.labels, 'images', r.name, 'labels'),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class ImageStore {
  private writes = 0;

  constructor(private readonly db: MetadataDB) {}

  /** Resolves once every write made so far is on disk (MetadataDB.durable). */
  durable(): Promise<void> {
    return this.db.durable();
  }

  /** Changes with every write (also one rolled back): what was read before is stale once it moved. */
  get generation(): number {
    return this.writes;
  }

  get(name: string): ImageRecord {
    const found = this.tryGet(name);
    if (!found) throw notFound(`image ${JSON.stringify(name)} not found`);
    return found;
  }

  tryGet(name: string): ImageRecord | undefined {
    const row = this.db.prepare('SELECT * FROM images WHERE name = ?').get(name) as Row | undefined;
    return row && fromRow(row);
  }

  list(): ImageRecord[] {
    return (this.db.prepare('SELECT * FROM images ORDER BY name').all() as Row[]).map(fromRow);
  }

  listByConfig(configDigest: string): ImageRecord[] {
    const rows = this.db.prepare('SELECT * FROM images WHERE config_digest = ? ORDER BY name').all(configDigest);
    return (rows as Row[]).map(fromRow);
  }

  /** Config digests (image IDs) whose hex starts with `hexPrefix`. */
  idsWithPrefix(hexPrefix: string): string[] {
    const rows = this.db
      .prepare("SELECT DISTINCT config_digest FROM images WHERE config_digest LIKE ? ESCAPE '\\' ORDER BY 1")
      .all(`sha256:${hexPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as { config_digest: string }[];
    return rows.map((r) => r.config_digest);
  }

  /**
   * Creates or updates (re-pointing a tag to a new pull or import) the record for `image.name`. An
   * image that loses its last name this way stays, named by its ID, as containerd keeps it (listed
   * with no tags, for the kubelet's image GC to remove), instead of holding its blobs and layers
   * unlisted.
   */
  put(image: NewImage): ImageRecord {
    if (image.name === '') throw invalidArgument('image name is empty');
    if (!isDigest(image.target.digest)) throw invalidArgument(`image ${image.name}: invalid target digest ${image.target.digest}`);
    if (!isDigest(image.configDigest)) throw invalidArgument(`image ${image.name}: invalid config digest ${image.configDigest}`);
    const now = Date.now();
    this.writes++;
    // In a transaction of its own (or the caller's): a full disk answers ResourceExhausted, as every write does.
    return this.db.tx(() => {
      const previous = this.tryGet(image.name);
      this.db
        .prepare(
          `INSERT INTO images (name, media_type, digest, size, config_digest, labels, created_at, updated_at)
           VALUES (@name, @media_type, @digest, @size, @config_digest, @labels, @now, @now)
           ON CONFLICT(name) DO UPDATE SET media_type = excluded.media_type, digest = excluded.digest,
             size = excluded.size, config_digest = excluded.config_digest, labels = excluded.labels,
             updated_at = excluded.updated_at`,
        )
        .run({
          name: image.name,
          media_type: image.target.mediaType,
          digest: image.target.digest,
          size: image.target.size,
          config_digest: image.configDigest,
          labels: toJSON(image.labels ?? {}),
          now,
        });
      if (previous !== undefined && previous.configDigest !== image.configDigest && this.listByConfig(previous.configDigest).length === 0) {
        this.put({ name: previous.configDigest, target: previous.target, configDigest: previous.configDigest, labels: previous.labels });
      }
      return this.get(image.name);
    });
  }

  /** Records several names in one transaction. */
  putAll(images: readonly NewImage[]): ImageRecord[] {
    return this.db.tx(() => images.map((i) => this.put(i)));
  }

  /** Deletes several names in one transaction (all or none). */
  deleteAll(names: readonly string[]): void {
    this.db.tx(() => names.forEach((n) => this.delete(n)));
  }

  delete(name: string): void {
    this.writes++;
    const res = this.db.tx(() => this.db.prepare('DELETE FROM images WHERE name = ?').run(name));
    if (res.changes === 0) throw notFound(`image ${JSON.stringify(name)} not found`);
  }
}

// berthctl images ls|pull|rm|import|export (and crictl's spellings: images, pull, rmi). Listing,
// pulling and removing are CRI ImageService calls; import and export are berth.admin.v1.
import { randomBytes } from 'node:crypto';
import { createWriteStream, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Image__Output } from '../../../internal/api/gen/runtime/v1/Image';
import type { DaemonClient } from '../client';
import { quick, slow } from '../client_run';
import { CommandError, describeFailure, EXIT_FAILED, EXIT_OK, UsageError } from '../errors';
import { humanSize, truncateId } from '../humanize';
import { outputFormat, printStructured, table, write } from '../output';
import { withProgress } from '../progress';
import { criJson } from '../proto_json';

export interface ListImagesOptions {
  output: string;
  quiet?: boolean;
  verbose?: boolean;
  digests?: boolean;
  noTrunc?: boolean;
}

/** crictl's order: by first tag, else first digest, else ID. */
function byRef(a: Image__Output, b: Image__Output): number {
  const key = (i: Image__Output) => i.repo_tags[0] ?? i.repo_digests[0] ?? i.id;
  if ((a.repo_tags.length > 0) !== (b.repo_tags.length > 0)) return a.repo_tags.length > 0 ? -1 : 1;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** [repository, digest] of the first repo digest, "<none>" when there is none (crictl's normalizeRepoDigest). */
function repoDigestPair(digests: string[]): [string, string] {
  const first = digests[0];
  if (first === undefined) return ['<none>', '<none>'];
  const at = first.lastIndexOf('@');
  return at < 0 ? ['errorName', 'errorRepoDigest'] : [first.slice(0, at), first.slice(at + 1)];
}

/** [repository, tag] rows of an image (crictl's normalizeRepoTagPair). */
function repoTagPairs(tags: string[], imageName: string): Array<[string, string]> {
  if (tags.length === 0) return [[imageName, '<none>']];
  return tags.map((tag) => {
    const colon = tag.lastIndexOf(':');
    return colon < 0 ? ['errorRepoTag', 'errorRepoTag'] : [tag.slice(0, colon), tag.slice(colon + 1)];
  });
}

export async function listImages(c: DaemonClient, filter: string | undefined, opts: ListImagesOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  const { images } = await c.image.ListImages({ filter: filter ? { image: { image: filter } } : null }, quick());
  images.sort(byRef);
  if (format !== 'table') {
    printStructured(criJson('ListImagesResponse', { images }), format);
    return;
  }
  if (opts.quiet) {
    for (const image of images) write(image.id);
    return;
  }
  if (opts.verbose) {
    let out = '';
    for (const image of images) {
      out += `ID: ${image.id}\n`;
      for (const tag of image.repo_tags) out += `RepoTags: ${tag}\n`;
      for (const digest of image.repo_digests) out += `RepoDigests: ${digest}\n`;
      if (image.size !== '0') out += `Size: ${image.size}\n`;
      if (image.uid) out += `Uid: value:${image.uid.value}\n`;
      if (image.username !== '') out += `Username: ${image.username}\n`;
      out += '\n';
    }
    process.stdout.write(out);
    return;
  }
  const rows: string[][] = [opts.digests ? ['IMAGE', 'TAG', 'DIGEST', 'IMAGE ID', 'SIZE'] : ['IMAGE', 'TAG', 'IMAGE ID', 'SIZE']];
  for (const image of images) {
    const [name, digest] = repoDigestPair(image.repo_digests);
    const id = opts.noTrunc ? image.id : truncateId(image.id, 'sha256:');
    const shownDigest = opts.noTrunc ? digest : truncateId(digest, 'sha256:');
    const size = humanSize(Number(image.size));
    for (const [repo, tag] of repoTagPairs(image.repo_tags, name)) {
      rows.push(opts.digests ? [repo, tag, shownDigest, id, size] : [repo, tag, id, size]);
    }
  }
  process.stdout.write(table(rows));
}

export interface PullOptions {
  creds?: string;
  auth?: string;
}

function pullAuth(opts: PullOptions) {
  if (opts.creds !== undefined) {
    const colon = opts.creds.indexOf(':');
    const [username, password] = colon < 0 ? [opts.creds, ''] : [opts.creds.slice(0, colon), opts.creds.slice(colon + 1)];
    if (username === '') throw new UsageError('--creds: username can\'t be empty');
    return { username, password };
  }
  if (opts.auth !== undefined) return { auth: opts.auth };
  return null;
}

export async function pullImage(c: DaemonClient, image: string, opts: PullOptions): Promise<void> {
  if (image === '') throw new UsageError('image name cannot be empty');
  const auth = pullAuth(opts);
  const pulling = c.image.PullImage({ image: { image }, auth }, slow());
  const res = await withProgress(c, `pulling ${image}`, undefined, pulling);
  write(`Image is up to date for ${res.image_ref}`);
}

export interface RemoveImagesOptions {
  all?: boolean;
  prune?: boolean;
}

/** crictl rmi: every named (or, with --all, every) image; --prune: those no container uses. */
export async function removeImages(c: DaemonClient, verb: string, address: string, refs: string[], opts: RemoveImagesOptions): Promise<number> {
  const targets = new Map<string, boolean>(refs.map((r) => [r, true]));
  if (opts.all || opts.prune) {
    for (const image of (await c.image.ListImages({}, quick())).images) targets.set(image.id, true);
  }
  if (opts.prune) {
    for (const container of (await c.runtime.ListContainers({}, quick())).containers) {
      const status = await c.image.ImageStatus({ image: { image: container.image?.image ?? container.image_ref } }, quick()).catch(() => undefined);
      if (status?.image) targets.set(status.image.id, false);
    }
  }
  if (targets.size === 0) throw new UsageError('no image to remove: name one, or give --all or --prune');
  let code = EXIT_OK;
  const fail = (err: unknown) => {
    const failure = describeFailure(verb, err, address);
    process.stderr.write(`${failure.line}\n`);
    code = Math.max(code, failure.code);
  };
  for (const [ref, remove] of targets) {
    if (!remove) continue;
    try {
      const { image } = await c.image.ImageStatus({ image: { image: ref } }, quick());
      if (!image) throw new CommandError(`no such image ${JSON.stringify(ref)}`);
      await c.image.RemoveImage({ image: { image: ref } }, slow());
      for (const name of image.repo_tags.length > 0 ? image.repo_tags : image.repo_digests) write(`Deleted: ${name}`);
    } catch (err) {
      fail(err);
    }
  }
  return code === EXIT_OK ? EXIT_OK : Math.max(code, EXIT_FAILED);
}

export async function importImage(c: DaemonClient, file: string, name: string | undefined): Promise<void> {
  // The daemon opens the file: give it a path that means the same thing from its working directory.
  const path = resolve(file);
  let size: number | undefined;
  try {
    size = statSync(path).size;
  } catch {
    size = undefined; // berthd names a missing or unreadable archive itself
  }
  const importing = c.admin.ImportImage({ path, name: name ?? '' }, slow());
  const res = await withProgress(c, `importing ${file}`, size, importing);
  for (const image of res.images) write(`${image.name}\t${image.id}`);
}

/**
 * Where an export writes: a regular file (or a new one) gets the archive in a temporary file beside
 * it, renamed over it once whole, so a failed export leaves what was there (or nothing) instead of
 * half an archive; anything else (a device, a FIFO, stdout) is written to as it is and never removed.
 */
function exportTarget(outFile: string): { out: NodeJS.WritableStream & { destroy(): void }; commit(): void; abandon(): void } {
  let existing;
  try {
    existing = statSync(outFile); // through a symlink, as `ctr images export` writes through it
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (existing && !existing.isFile()) {
    const out = createWriteStream(outFile);
    return { out, commit: () => undefined, abandon: () => out.destroy() };
  }
  const target = existing ? realpathSync(outFile) : resolve(outFile);
  const temp = join(dirname(target), `.${basename(target)}.berthctl-${randomBytes(4).toString('hex')}`);
  const out = createWriteStream(temp, { mode: existing ? existing.mode & 0o7777 : 0o644, flags: 'wx' });
  return {
    out,
    commit: () => renameSync(temp, target),
    abandon: () => {
      out.destroy();
      rmSync(temp, { force: true });
    },
  };
}

/** Writes the image's OCI archive to `outFile` ("-" = stdout). */
export async function exportImage(c: DaemonClient, image: string, outFile: string): Promise<void> {
  if (outFile === '-' && process.stdout.isTTY) throw new UsageError('refusing to write an archive to a terminal: give --output FILE or redirect');
  const target = outFile === '-' ? undefined : exportTarget(outFile);
  const out = target?.out ?? process.stdout;
  const stream = c.adminRaw.ExportImage({ image }, slow());
  try {
    await new Promise<void>((resolveDone, reject) => {
      stream.on('error', reject);
      out.on('error', reject);
      stream.on('data', (chunk: { data: Buffer }) => {
        if (!out.write(chunk.data)) {
          stream.pause();
          out.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => resolveDone());
    });
    if (target) {
      await new Promise<void>((r, reject) => target.out.once('error', reject).end(r));
      target.commit();
    }
  } catch (err) {
    stream.cancel();
    target?.abandon();
    throw err;
  }
}

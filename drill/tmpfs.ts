import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A small tmpfs mounted on a fresh folder: a disk that really fills up. Needs root (or CAP_SYS_ADMIN). */
export interface SmallDisk {
  dir: string
  unmount(): Promise<void>
}

/** Mounts the disk, or returns why it cannot (not root, no mount in this container, …). */
export async function mountSmallDisk(sizeBytes: number): Promise<SmallDisk | { unavailable: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tourdesk-small-disk-'))
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir])
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    const stderr = (err as { stderr?: string }).stderr?.trim()
    return { unavailable: `mount -t tmpfs failed: ${stderr || (err as Error).message}` }
  }
  return {
    dir,
    async unmount() {
      await run('umount', [dir])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ROOT } from './node-process.ts'

/**
 * A copy of the service's sources in a scratch folder, built as `npm run build` builds it,
 * for running another version beside this checkout. The copies share this checkout's
 * node_modules (a symlink), and nothing in the repository changes: they are made with
 * `git ls-files` and `git archive`, not with a work tree registered in .git.
 */
export interface SourceTree {
  dir: string
  /** What it holds, for the report: "the work tree" or a short commit. */
  source: string
  remove(): void
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim()

function tree(parent: string, name: string, source: string, fill: (dir: string) => void): SourceTree {
  const dir = mkdtempSync(join(parent, `tourdesk-${name}-`))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    fill(dir)
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  } catch (err) {
    remove()
    throw err
  }
  return { dir, source, remove }
}

/** A change made to a copy before it is built (WITHOUT_OUTBOX, WITHOUT_EMAIL_PROJECTION). */
export interface TreeEdit {
  describe: string
  apply(dir: string): void
}

/**
 * The work tree as it is now, uncommitted changes and new files included (what the rest of
 * the bench measures), changed by `edit` before it is built.
 */
export function workTreeCopy(parent: string, name: string, edit?: TreeEdit): SourceTree {
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== ''
  const source = `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''}${edit ? ` ${edit.describe}` : ''}`
  return tree(parent, name, source, (dir) => {
    for (const file of git('ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0')) {
      const from = join(ROOT, file)
      // Deleted but not yet committed, or a submodule: nothing to copy.
      if (file === '' || !existsSync(from) || !statSync(from).isFile()) continue
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      copyFileSync(from, join(dir, file))
    }
    edit?.apply(dir)
  })
}

/** A commit's tree, from `git archive`. */
export function commitCopy(parent: string, name: string, commit: string): SourceTree {
  return tree(parent, name, git('rev-parse', '--short', commit), (dir) => {
    execFileSync('sh', ['-c', 'git archive --format=tar "$0" | tar -x -C "$1"', commit, dir], { cwd: ROOT })
  })
}

/** The copies of one bench run, each built once however many sections and databases run it. */
export interface SourceTrees {
  /** The work tree, changed by `edit` if given (workTreeCopy). */
  workTree(edit?: TreeEdit): SourceTree
  /** A commit's tree (commitCopy). */
  commit(commit: string): SourceTree
}

/**
 * Copies built in `parent` (the run's scratch folder, removed with it) and shared: the webhooks,
 * price categories and OCTo sections each built the same work tree and their commits again,
 * on each database, 18 builds in a run where 7 differ. Each service started from a copy still
 * gets a database of its own, and two services running from one copy at once is what the
 * webhooks section's fan-out always did.
 */
export function sourceTrees(parent: string): SourceTrees {
  const built = new Map<string, SourceTree>()
  const once = (key: string, make: () => SourceTree) => {
    const tree = built.get(key) ?? make()
    built.set(key, tree)
    return tree
  }
  return {
    workTree: (edit) => once(`work tree ${edit?.describe ?? ''}`, () => workTreeCopy(parent, edit ? 'work-edited' : 'work', edit)),
    commit: (commit) => once(`commit ${commit}`, () => commitCopy(parent, 'commit', commit)),
  }
}

/** The last commit before `file` existed: the parent of the first commit that added it. */
export function commitBefore(file: string): string {
  const [added] = git('log', '--format=%H', '--diff-filter=A', '--', file).split('\n').slice(-1)
  if (!added) throw new Error(`no commit adds ${file}`)
  return git('rev-parse', `${added}^`)
}

/** The last commit before the outbox: the parent of the commit that added src/store/events.ts. */
export const commitBeforeOutbox = (): string => commitBefore('src/store/events.ts')

/** Where every write's events are appended (src/store/store.ts): the plan runs as before, its events are dropped. */
const OUTBOX_APPEND = /\(emitted\) => events\.append\(emitted\)/g

/**
 * Makes a copy's writes skip the outbox: no event rows, no sequence update, no fan-out,
 * everything else as it is. Only for measuring what the outbox costs; the service has no
 * such switch. Throws when the line it replaces has moved, so the bench says so instead of
 * measuring the outbox twice.
 */
export const WITHOUT_OUTBOX = {
  describe: 'without the outbox',
  apply(dir: string): void {
    const path = join(dir, 'src/store/store.ts')
    const source = readFileSync(path, 'utf8')
    const matches = source.match(OUTBOX_APPEND)?.length ?? 0
    if (matches !== 1) throw new Error(`src/store/store.ts has ${matches} "(emitted) => events.append(emitted)"; the bench removes the outbox there and needs exactly one`)
    writeFileSync(path, source.replace(OUTBOX_APPEND, 'function* () {}'))
  },
}

/** Where each node schedules the making of emails from events (src/context.ts). */
const EMAIL_PROJECTION_TASK = 'scheduler.add(emails.projectionTask())'

/**
 * Makes a copy's nodes make no emails from events: the outbox is written as before and read by
 * webhook delivery, but its email projection (rendering each message, its calendar file and
 * manage link, and keeping it) is left out. Only for telling the outbox's own cost from that of
 * the emails it feeds; the service has no such switch.
 */
export const WITHOUT_EMAIL_PROJECTION = {
  describe: 'without the email projection',
  apply(dir: string): void {
    const path = join(dir, 'src/context.ts')
    const source = readFileSync(path, 'utf8')
    const matches = source.split(EMAIL_PROJECTION_TASK).length - 1
    if (matches !== 1) throw new Error(`src/context.ts has ${matches} "${EMAIL_PROJECTION_TASK}"; the bench leaves the email projection out there and needs exactly one`)
    writeFileSync(path, source.replace(EMAIL_PROJECTION_TASK, ''))
  },
}

import { useEffect, useState } from 'preact/hooks'

export type Loaded<T> = { kind: 'loading' } | { kind: 'ready', data: T } | { kind: 'failed', message: string }

/**
 * Data a view reads from the API: loading until it comes, then the data or the reason it did not.
 * reload() keeps what is shown while it reads again, so a refresh never blanks the view.
 */
export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => Promise<void>] {
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' })
  async function load(): Promise<void> {
    try {
      setState({ kind: 'ready', data: await read() })
    } catch (err) {
      setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) })
    }
  }
  useEffect(() => {
    setState({ kind: 'loading' })
    void load()
  }, deps)
  return [state, load]
}

/** What a view shows while its data loads, or when it could not. */
export function LoadState({ state, what, retry }: { state: Loaded<unknown>, what: string, retry: () => void }) {
  if (state.kind === 'loading') return <p class="loading" role="status">Loading {what}…</p>
  if (state.kind === 'failed') {
    return (
      <div class="message" data-tone="error" role="alert">
        <p>Could not load {what}: {state.message}</p>
        <button type="button" class="button quiet" onClick={retry}>Try again</button>
      </div>
    )
  }
  return null
}

import { useEffect, useRef, useState } from 'preact/hooks'
import type { EventType } from '../../../src/schemas/event-type.ts'
import { DISABLE_AFTER_MS, retryScheduleInWords, waitInWords } from '../../../src/domain/webhook-retry.ts'
import { LoadState, useLoad } from '../load.tsx'
import type { WebhookDelivery as Delivery } from '../types.ts'
import { Link } from '../router.tsx'
import { useOffice } from '../session.tsx'
import {
  Confirmed, described, FieldError, fieldErrorsOf, focusFirstInvalid, instantOfLocal, localInputValue, MoreButton, refusalText, SettingsHeading, ShownOnce,
  usePages, when,
} from './settings-parts.tsx'

/** What each event type an endpoint can receive is about (docs/events-and-webhooks.md, "Events"): one per type of src/schemas/event-type.ts, which the type and the browser test hold it to. */
const ABOUT_EVENT: Record<EventType, string> = {
  'booking.requested': 'a guest asks for a tour that needs confirmation',
  'booking.confirmed': 'a booking is confirmed',
  'booking.declined': 'a request is declined',
  'booking.cancelled': 'a booking is cancelled',
  'booking.changed': 'a booking is moved or resized',
  'booking.checked_in': 'a guest is checked in',
  'booking.no_show': 'a guest did not come',
  'departure.closed': 'a departure is closed to new bookings',
  'departure.reopened': 'a departure takes bookings again',
  'departure.cancelled': 'a departure is cancelled',
  'departure.at_risk': 'a departure is below its minimum at the deadline',
  'departure.guaranteed': 'a departure reaches its minimum',
  'contact.received': 'a contact message arrives',
  'newsletter.subscribed': 'someone subscribes to the newsletter',
}
const EVENT_TYPES = Object.entries(ABOUT_EVENT).map(([type, about]) => ({ type, about }))

interface Webhook {
  id: string
  url: string
  description: string | null
  events: string[]
  enabled: boolean
  disabled_at: string | null
  disabled_reason: string | null
  failing_since: string | null
  previous_secret_expires_at: string | null
  created_at: string
  version: number
}
interface TestResult { id: string, delivered: boolean, status: number | null, error: string | null, duration_ms: number }

/** The badges that say how an endpoint is: off (and why), failing since when, a previous secret still signing. */
function WebhookBadges({ webhook: w }: { webhook: Webhook }) {
  const { formats } = useOffice()
  return (
    <ul class="badges">
      {w.enabled ? <li class="badge" data-tone="good">On</li> : <li class="badge" data-tone="danger">Off{w.disabled_reason ? `: ${w.disabled_reason}` : ''}</li>}
      {w.failing_since && <li class="badge" data-tone="warn">Failing since {when(formats, w.failing_since)}</li>}
      {w.previous_secret_expires_at && <li class="badge">Old secret signs too until {when(formats, w.previous_secret_expires_at)}</li>}
    </ul>
  )
}

/** Webhook endpoints: add one (its secret shown once), turn on and off, rotate its secret, remove it; each opens its delivery log. */
export function WebhookSettings() {
  const { api, announce } = useOffice()
  const [state, reload] = useLoad(() => api.get<{ webhooks: Webhook[] }>('/webhooks?limit=200').then((b) => b.webhooks), [])
  const [secret, setSecret] = useState<{ webhook: Webhook, secret: string, rotated: boolean } | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string, text: string } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  async function act(w: Webhook, run: () => Promise<void>): Promise<void> {
    setBusy(w.id)
    setFailure(null)
    try {
      await run()
    } catch (err) {
      setFailure({ id: w.id, text: refusalText(err) })
    } finally {
      setBusy(null)
    }
  }

  const toggle = (w: Webhook) => act(w, async () => {
    await api.patch(`/webhooks/${w.id}`, { enabled: !w.enabled })
    await reload()
    announce(`Webhook to ${w.url} turned ${w.enabled ? 'off: nothing is sent to it' : 'on'}.`)
    requestAnimationFrame(() => document.getElementById(`toggle-${w.id}`)?.focus())
  })
  const rotate = (w: Webhook) => act(w, async () => {
    const answer = await api.post<{ webhook: Webhook, secret: string }>(`/webhooks/${w.id}/rotate-secret`)
    await reload()
    setSecret({ ...answer, rotated: true })
  })
  const remove = (w: Webhook) => act(w, async () => {
    await api.delete(`/webhooks/${w.id}`)
    await reload()
    announce(`Webhook to ${w.url} removed.`)
    heading.current?.focus()
  })

  return (
    <>
      <SettingsHeading headingRef={heading}>Webhooks</SettingsHeading>
      <p class="hint">Each event of the chosen types is sent to the endpoint as a signed POST (Standard Webhooks), {retryScheduleInWords()} when it fails.
        An endpoint whose every delivery fails for {waitInWords(DISABLE_AFTER_MS)} is turned off.</p>
      {secret && (
        <ShownOnce id="webhook-secret" value={secret.secret} label="Signing secret"
          title={secret.rotated ? `New signing secret for ${secret.webhook.url}` : `Webhook added: ${secret.webhook.url}`}
          warning={secret.rotated
            ? 'Give it to the receiver now. For 24 hours deliveries are signed with the old secret and this one, so the receiver can switch at any moment.'
            : 'Give it to the receiver now: it checks every delivery’s signature with it.'}
          onDone={() => {
            const id = secret.webhook.id
            setSecret(null)
            requestAnimationFrame(() => document.querySelector<HTMLElement>(`#webhook-${id} h2 a`)?.focus())
          }} />
      )}
      <LoadState state={state} what="the webhooks" retry={reload} />
      {state.kind === 'ready' && (state.data.length === 0 ? <p>No webhooks yet.</p> : (
        <ul class="cards" aria-label="Webhook endpoints">
          {state.data.map((w) => (
            <li class="card webhook" key={w.id} id={`webhook-${w.id}`}>
              <h2 class="wrap"><Link to={`settings/webhooks/${w.id}`}>{w.url}</Link></h2>
              {w.description && <p>{w.description}</p>}
              <WebhookBadges webhook={w} />
              <p class="events"><span class="muted">Events:</span> {w.events.join(', ')}</p>
              <div class="actions">
                <button type="button" class="button quiet" id={`toggle-${w.id}`} disabled={busy === w.id} onClick={() => toggle(w)}
                  aria-label={`${w.enabled ? 'Turn off' : 'Turn on'} webhook to ${w.url}`}>{w.enabled ? 'Turn off' : 'Turn on'}</button>
                <Confirmed id={`rotate-${w.id}`} label="New secret…" accessibleLabel={`New secret for webhook to ${w.url}`} busy={busy === w.id} tone="plain"
                  question="Make a new signing secret? The current one keeps signing too for 24 hours." yes="Make a new secret" onYes={() => rotate(w)} />
                <Confirmed id={`remove-${w.id}`} label="Remove…" accessibleLabel={`Remove webhook to ${w.url}`} busy={busy === w.id}
                  question={<>Remove the webhook to <strong class="wrap">{w.url}</strong>? Nothing more is sent to it, and its delivery log goes too.</>}
                  yes="Remove webhook" onYes={() => remove(w)} />
              </div>
              {failure?.id === w.id && <p class="message" data-tone="error" role="alert">{failure.text}</p>}
            </li>
          ))}
        </ul>
      ))}
      <NewWebhookForm onAdded={async (answer) => {
        await reload()
        setSecret({ ...answer, rotated: false })
      }} />
    </>
  )
}

function NewWebhookForm({ onAdded }: { onAdded: (answer: { webhook: Webhook, secret: string }) => Promise<void> }) {
  const { api } = useOffice()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<string[]>([])
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (errors.url || errors.description) focusFirstInvalid(form.current)
    else if (errors.events) document.getElementById(`event-${EVENT_TYPES[0].type}`)?.focus()
  }, [errors])

  async function add(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    setFailure(null)
    if (events.length === 0) return setErrors({ events: 'Choose at least one event type.' })
    setErrors({})
    setBusy(true)
    try {
      const answer = await api.post<{ webhook: Webhook, secret: string }>('/webhooks', { url: url.trim(), events, ...description.trim() ? { description: description.trim() } : {} })
      setUrl('')
      setDescription('')
      setEvents([])
      await onAdded(answer)
    } catch (err) {
      const found = fieldErrorsOf(err, (field, message) => `${field === 'url' ? 'The URL' : field === 'events' ? 'Events' : field} ${message}.`)
      // A refused URL says why in the problem's detail; the field error repeats it.
      setErrors(found)
      if (!found.url && !found.events && !found.description) setFailure(refusalText(err))
    } finally {
      setBusy(false)
    }
  }

  const all = events.length === EVENT_TYPES.length
  return (
    <form class="settings-form card" ref={form} noValidate onSubmit={add} aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">Add a webhook</h2>
      <label for="webhook-url">Endpoint URL</label>
      <p class="field-hint" id="webhook-url-hint">Where the events are POSTed: an https address on the internet.</p>
      <input id="webhook-url" type="url" inputMode="url" autocomplete="off" spellcheck={false} value={url}
        onInput={(e) => setUrl(e.currentTarget.value)} {...described('webhook-url', errors, 'url', true)} />
      <FieldError id="webhook-url" errors={errors} field="url" />
      <label for="webhook-description">Description (optional)</label>
      <input id="webhook-description" type="text" maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)}
        {...described('webhook-description', errors, 'description')} />
      <FieldError id="webhook-description" errors={errors} field="description" />
      <fieldset class="event-choices" aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
        <legend>Events to send</legend>
        <button type="button" class="button quiet small" onClick={() => setEvents(all ? [] : EVENT_TYPES.map((e) => e.type))}>{all ? 'Clear all' : 'Choose all'}</button>
        {EVENT_TYPES.map(({ type, about }) => (
          <div class="event-choice" key={type}>
            <input type="checkbox" id={`event-${type}`} value={type} checked={events.includes(type)}
              onChange={(e) => setEvents(e.currentTarget.checked ? [...events, type] : events.filter((t) => t !== type))} />
            <label for={`event-${type}`}><span class="code">{type}</span> <span class="muted">{about}</span></label>
          </div>
        ))}
      </fieldset>
      <FieldError id="webhook-events" errors={errors} field="events" />
      {failure && <p class="message" data-tone="error" role="alert">{failure}</p>}
      <button type="submit" class="button" disabled={busy}>{busy ? 'Adding…' : 'Add webhook'}</button>
    </form>
  )
}

const STATUS_NAMES: Record<Delivery['status'], [tone: string, text: string]> = {
  pending: ['warn', 'Waiting'], delivered: ['good', 'Delivered'], failed: ['danger', 'Failed'],
}

/** One endpoint: its state, a test message, replaying events since a moment, and the delivery log. */
export function WebhookDetail({ id }: { id: string }) {
  const { api, formats, announce } = useOffice()
  const zone = formats.operatorZone
  const [endpoint, reloadEndpoint] = useLoad(() => api.get<Webhook>(`/webhooks/${encodeURIComponent(id)}`), [id])
  const log = usePages<Delivery>((cursor) => api.get<{ deliveries: Delivery[], next_cursor: string | null }>(
    `/webhooks/${encodeURIComponent(id)}/deliveries?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
  ).then((b) => ({ items: b.deliveries, next: b.next_cursor })), [id])
  const [test, setTest] = useState<{ busy: boolean, result: TestResult | null, error: string | null }>({ busy: false, result: null, error: null })
  const [since, setSince] = useState(() => localInputValue(zone, Date.now() - 24 * 3600_000))
  const [replay, setReplay] = useState<{ busy: boolean, error: string | null, done: string | null }>({ busy: false, error: null, done: null })
  const [refreshing, setRefreshing] = useState(false)
  const testResult = useRef<HTMLParagraphElement>(null)
  const replayResult = useRef<HTMLParagraphElement>(null)

  useEffect(() => { if (!test.busy && (test.result || test.error)) testResult.current?.focus() }, [test])
  useEffect(() => { if (!replay.busy && (replay.done || replay.error)) replayResult.current?.focus() }, [replay])

  async function sendTest(): Promise<void> {
    setTest({ busy: true, result: null, error: null })
    try {
      setTest({ busy: false, result: await api.post<TestResult>(`/webhooks/${encodeURIComponent(id)}/test`), error: null })
    } catch (err) {
      setTest({ busy: false, result: null, error: refusalText(err) })
    }
  }

  async function sendAgain(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const instant = instantOfLocal(since, zone)
    if (!instant) return setReplay({ busy: false, error: 'Give a date and a time.', done: null })
    setReplay({ busy: true, error: null, done: null })
    try {
      const answer = await api.post<{ deliveries: number }>(`/webhooks/${encodeURIComponent(id)}/replay`, { since: instant })
      await log.reload()
      setReplay({
        busy: false, error: null,
        done: answer.deliveries === 0 ? `No events since ${when(formats, instant)}: nothing to send again.`
          : `${answer.deliveries} ${answer.deliveries === 1 ? 'event' : 'events'} since ${when(formats, instant)} will be sent again within moments.`,
      })
    } catch (err) {
      setReplay({ busy: false, error: refusalText(err), done: null })
    }
  }

  async function refresh(): Promise<void> {
    setRefreshing(true)
    await Promise.all([log.reload(), reloadEndpoint()])
    setRefreshing(false)
    announce('Delivery log brought up to date.')
  }

  return (
    <>
      <p class="back"><Link to="settings/webhooks">← Webhooks</Link></p>
      <h1 tabIndex={-1}>Webhook deliveries{endpoint.kind === 'ready' && <span class="subtitle wrap">{endpoint.data.url}</span>}</h1>
      <LoadState state={endpoint} what="the webhook" retry={reloadEndpoint} />
      {endpoint.kind === 'ready' && (
        <>
          {endpoint.data.description && <p>{endpoint.data.description}</p>}
          <WebhookBadges webhook={endpoint.data} />
          <p class="events"><span class="muted">Events:</span> {endpoint.data.events.join(', ')}</p>
          <section class="card tools" aria-labelledby="test-title">
            <h2 id="test-title">Test</h2>
            <p>Sends a signed <span class="code">webhook.test</span> message now, once; it is not kept in the log below.</p>
            <button type="button" class="button" disabled={test.busy} onClick={sendTest}>{test.busy ? 'Sending…' : 'Send test'}</button>
            {test.result && (
              <p class="message" data-tone={test.result.delivered ? undefined : 'error'} role="status" tabIndex={-1} ref={testResult}>
                {test.result.delivered
                  ? `Delivered: the receiver answered ${test.result.status} in ${test.result.duration_ms} ms.`
                  : `Not delivered: ${test.result.status === null ? test.result.error ?? 'no answer' : `the receiver answered ${test.result.status}`}${test.result.status !== null && test.result.error ? ` (${test.result.error})` : ''}.`}
              </p>
            )}
            {test.error && <p class="message" data-tone="error" role="alert" tabIndex={-1} ref={testResult}>{test.error}</p>}
          </section>
          <form class="card tools" aria-labelledby="replay-title" onSubmit={sendAgain}>
            <h2 id="replay-title">Replay</h2>
            <p id="replay-hint">Sends again every event of this endpoint’s types since a moment (events are kept 30 days). Each keeps its id, so a receiver that skips ids it has seen handles each once.</p>
            <label for="replay-since">Since ({formats.zoneName(zone)})</label>
            <div class="inline-field">
              <input id="replay-since" type="datetime-local" class="short" value={since} required aria-describedby="replay-hint" onInput={(e) => setSince(e.currentTarget.value)} />
              <button type="submit" class="button" disabled={replay.busy}>{replay.busy ? 'Replaying…' : 'Replay since'}</button>
            </div>
            {replay.done && <p class="message" role="status" tabIndex={-1} ref={replayResult}>{replay.done}</p>}
            {replay.error && <p class="message" data-tone="error" role="alert" tabIndex={-1} ref={replayResult}>{replay.error}</p>}
          </form>
        </>
      )}
      <section aria-labelledby="log-title">
        <div class="log-heading">
          <h2 id="log-title">Delivery log</h2>
          <button type="button" class="button quiet" disabled={refreshing} onClick={refresh}>{refreshing ? 'Refreshing…' : 'Refresh'}</button>
        </div>
        <LoadState state={log.state} what="the delivery log" retry={log.reload} />
        {log.state.kind === 'ready' && (log.state.data.items.length === 0 ? <p>Nothing has been sent to this endpoint yet.</p> : (
          <>
            <ul class="cards log" aria-label="Deliveries, newest first">
              {log.state.data.items.map((d) => {
                const [tone, text] = STATUS_NAMES[d.status]
                return (
                  <li class="card delivery" key={d.id} data-status={d.status}>
                    <p class="log-head">
                      <span class="badge" data-tone={tone}>{text}</span> <span class="event-type">{d.event_type ?? 'An event no longer in the feed'}</span>
                      {d.booking && <> · <Link to={`bookings/${encodeURIComponent(d.booking)}`} class="code">{d.booking}</Link></>}
                    </p>
                    <p class="muted">Event <span class="code">{d.event_id}</span></p>
                    <dl class="facts">
                      <div><dt>Made</dt><dd>{when(formats, d.created_at)}</dd></div>
                      {d.delivered_at && <div><dt>Delivered</dt><dd>{when(formats, d.delivered_at)}</dd></div>}
                      {d.next_attempt_at && <div><dt>Next attempt</dt><dd>{when(formats, d.next_attempt_at)}</dd></div>}
                      <div><dt>Attempts</dt><dd>{d.attempts}</dd></div>
                      <div><dt>Response</dt><dd>{d.last_status ?? (d.attempts === 0 ? 'not tried yet' : 'no answer')}</dd></div>
                    </dl>
                    {d.last_error && <p class="muted">Last error: {d.last_error}</p>}
                    {d.attempt_log.length > 0 && (
                      <details class="attempts">
                        <summary>Every attempt ({d.attempt_log.length})</summary>
                        <ol>
                          {d.attempt_log.map((a) => (
                            <li key={a.attempt}>
                              <p>{when(formats, a.at)} · {a.duration_ms} ms · {a.status === null ? 'no answer' : `answered ${a.status}`}</p>
                              {a.error && <p class="muted">{a.error}</p>}
                              {a.answer && <pre class="answer" aria-label={`Answer to attempt ${a.attempt} (first 1 KiB)`}>{a.answer}</pre>}
                            </li>
                          ))}
                        </ol>
                      </details>
                    )}
                  </li>
                )
              })}
            </ul>
            <MoreButton next={log.state.data.next} more={log.more} loadMore={log.loadMore} what="deliveries" />
          </>
        ))}
      </section>
    </>
  )
}

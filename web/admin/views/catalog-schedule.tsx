import { useMemo } from 'preact/hooks'
import { Temporal } from 'temporal-polyfill'
import { expandSchedule } from '../../../src/domain/schedule.ts'
import { useOffice } from '../session.tsx'
import { Choices, TextField } from './catalog-fields.tsx'
import { rowKey, scheduleOf, WEEKDAYS, type RuleDraft, type TourDraft } from './catalog-model.ts'

const PREVIEW_COUNT = 8
/** How far ahead the preview looks for departures: a seasonal tour may start next year. */
const PREVIEW_DAYS = 400
const WINDOW_DAYS = 31

/** Weekday names in the manager's language, Monday first (1 June 2026 is a Monday). */
function weekdayOptions(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' })
  return WEEKDAYS.map((value, i) => ({ value, label: format.format(Date.UTC(2026, 5, 1 + i, 12)) }))
}

/** The tour's schedule rules and blackout dates, with the departures they give. */
export function ScheduleEditor({ draft, onChange }: { draft: TourDraft, onChange: (draft: TourDraft) => void }) {
  const { formats } = useOffice()
  const weekdays = useMemo(() => weekdayOptions(formats.locale), [formats.locale])
  const setRule = (index: number, rule: Partial<RuleDraft>) => onChange({ ...draft, schedule: draft.schedule.map((r, i) => (i === index ? { ...r, ...rule } : r)) })
  const addRule = () => {
    const last = draft.schedule[draft.schedule.length - 1]
    onChange({ ...draft, schedule: [...draft.schedule, { key: rowKey(), from: last?.from ?? '', until: last?.until ?? '', weekdays: [...WEEKDAYS], times: last?.times ?? '' }] })
    // Focus goes to the new rule's first input once it is drawn.
    requestAnimationFrame(() => document.querySelectorAll<HTMLElement>('.schedule-rule')[draft.schedule.length]?.querySelector('input')?.focus())
  }
  const removeRule = (index: number) => {
    onChange({ ...draft, schedule: draft.schedule.filter((_, i) => i !== index) })
    requestAnimationFrame(() => document.getElementById('add-rule')?.focus())
  }
  return (
    <>
      <ol class="rows schedule-rules">
        {draft.schedule.map((rule, i) => (
          <li class="row schedule-rule" key={rule.key}>
            <h3>Rule {i + 1}</h3>
            <div class="field-pair">
              <TextField path={`schedule.${i}.from`} label="From" type="date" value={rule.from} onInput={(from) => setRule(i, { from })} />
              <TextField path={`schedule.${i}.until`} label="Until (inclusive)" type="date" value={rule.until} onInput={(until) => setRule(i, { until })} />
            </div>
            <Choices path={`schedule.${i}.weekdays`} legend="On" kind="checkbox" options={weekdays} selected={rule.weekdays}
              onChange={(selected) => setRule(i, { weekdays: selected })} class="weekdays" />
            <TextField path={`schedule.${i}.times`} label="Start times" value={rule.times} onInput={(times) => setRule(i, { times })}
              hint="24-hour local times, separated by commas: 09:30, 14:00" />
            <button type="button" class="button quiet" disabled={draft.schedule.length === 1} onClick={() => removeRule(i)}>Remove rule {i + 1}</button>
          </li>
        ))}
      </ol>
      <button type="button" class="button quiet" id="add-rule" onClick={addRule}>Add a schedule rule</button>
      <TextField path="blackouts" label="Blackout dates" multiline rows={2} value={draft.blackouts} onInput={(blackouts) => onChange({ ...draft, blackouts })}
        hint="Dates the tour does not run, YYYY-MM-DD, separated by commas" />
      <SchedulePreview draft={draft} />
    </>
  )
}

/**
 * The next departures the rules as edited would give, in the operator's zone, before they
 * are saved: the service's own schedule expansion (src/domain/schedule.ts), run here.
 */
function SchedulePreview({ draft }: { draft: TourDraft }) {
  const { formats, me } = useOffice()
  const zone = me.instance.timezone
  const scheduled = scheduleOf(draft)
  const key = JSON.stringify(scheduled)
  const starts = useMemo(() => {
    if (!scheduled) return null
    try {
      const now = Date.now()
      const today = Temporal.PlainDate.from(formats.operatorDate(new Date(now).toISOString()))
      const found: string[] = []
      for (let day = 0; day < PREVIEW_DAYS && found.length < PREVIEW_COUNT; day += WINDOW_DAYS) {
        for (const departure of expandSchedule(scheduled, zone, today.add({ days: day }), WINDOW_DAYS)) {
          if (departure.startMs >= now && found.length < PREVIEW_COUNT) found.push(departure.startText)
        }
      }
      return found
    } catch {
      return null
    }
  }, [key, zone])
  return (
    <section class="schedule-preview" aria-labelledby="preview-title">
      <h3 id="preview-title">Next departures <span class="subtitle">{formats.zoneName(zone)}, as the rules above read now (not yet saved)</span></h3>
      {starts === null
        ? <p class="hint">The preview appears once every rule has its dates and times written as YYYY-MM-DD and HH:MM.</p>
        : starts.length === 0
          ? <p>These rules give no departure in the next {PREVIEW_DAYS} days.</p>
          : <ul class="preview-list">{starts.map((start) => <li key={start}><time dateTime={start}>{formats.dateTime(start)}</time></li>)}</ul>}
    </section>
  )
}

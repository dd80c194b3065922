import { useEffect, useId, useRef, useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm, type FieldErrors } from 'react-hook-form'
import { FormField, inputClasses } from '../../components/form-field'
import { preloadToaster } from '../../components/toast/toast-host'
import { whenIdle } from '../../lib/idle-browser'
import { dismissToast, showToast } from '../../components/toast/toast-store'
import { announceSubmit } from './announce-results'
import { siteEnv } from '../../lib/env'
import { useHydrated } from '../../lib/use-hydrated'
import { formCopy, submitToasts } from './contact-copy'
import { useDraft } from './use-draft'
import { LimitedField } from './limited-field'
import { AttachmentsField } from './attachments-field'
import { InquiryPanel } from './inquiry-panel'
import { briefPlaceholderAbout, contactContextOf } from '../../content/contact-context'
import {
  BUDGET_OPTIONS,
  PROJECT_TYPE_OPTIONS,
  submissionFieldsSchema,
  type SubmissionFields,
  type SubmissionFieldsInput,
} from '../../shared/submission/fields'
import type { SentInquiry, SubmitDependencies } from './submit-contact'

const resolver = zodResolver(submissionFieldsSchema)

/** The form as it opens, and again once a message is sent: every field empty, no option chosen. */
export const EMPTY_CONTACT_FORM: SubmissionFieldsInput = {
  name: '',
  contact: '',
  project_type: '',
  budget: '',
  message: '',
}

const requiredFields: ReadonlySet<string> = new Set(['name', 'contact', 'message'])

/** The two required one-line fields, in the form's order. The contact handle is not a word to correct. */
const textInputs = [
  { name: 'name', copy: formCopy.name, attributes: { autoComplete: 'name' } },
  {
    name: 'contact',
    copy: formCopy.contact,
    attributes: { autoComplete: 'off', autoCapitalize: 'off', spellCheck: false },
  },
] as const

/** The two optional dropdowns, in the form's order. */
const dropdowns: ReadonlyArray<{
  name: 'project_type' | 'budget'
  copy: { label: string; emptyOption: string }
  options: ReadonlyArray<{ value: string; label: string }>
}> = [
  { name: 'project_type', copy: formCopy.projectType, options: PROJECT_TYPE_OPTIONS },
  { name: 'budget', copy: formCopy.budget, options: BUDGET_OPTIONS },
]

/** Every channel that works without a script, with what protects it (the note shown with JavaScript off). */
const noScriptChannels = () => {
  const { telegram, whatsapp, email } = formCopy.noScript
  return [
    { href: siteEnv.telegramUrl, ...telegram },
    { href: siteEnv.whatsappUrl, ...whatsapp },
    {
      href: `mailto:${siteEnv.founderEmail}`,
      ...email,
      label: `${email.label} (${siteEnv.founderEmail})`,
    },
  ]
}

/**
 * The Secure Contact form (spec §2, §4, §5, §8). Before hydration (and with JavaScript off) its
 * fields are shown but disabled: there is no way to send without the script, and a plain HTML
 * submit would put the brief into a URL.
 */
export function ContactForm({ dependencies }: { dependencies: SubmitDependencies }) {
  const hydrated = useHydrated()
  const idPrefix = useId()
  const {
    register,
    control,
    handleSubmit,
    reset,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<SubmissionFieldsInput, unknown, SubmissionFields>({
    defaultValues: EMPTY_CONTACT_FORM,
    resolver,
    shouldFocusError: true,
  })

  const draft = useDraft(dependencies)
  const [sent, setSent] = useState<{ inquiry: SentInquiry; queued: boolean } | null>(null)
  const validationToast = useRef<number | null>(null)
  const submitButton = useRef<HTMLButtonElement>(null)
  const attachmentsInput = useRef<HTMLInputElement>(null)
  // What a call to action said the visitor came from (`?about=<id>`): read after hydration, so the
  // prerendered form and the first render agree. It chooses the project type and names the card in
  // the brief's placeholder; nothing is typed for the visitor. Until a message is sent.
  const [aboutDone, setAboutDone] = useState(false)
  const about = hydrated && !aboutDone ? contactContextOf(window.location.search) : null
  const projectType = about?.projectType
  useEffect(() => {
    if (projectType) setValue('project_type', projectType)
  }, [projectType, setValue])

  const onValid = async (fields: SubmissionFields) => {
    if (validationToast.current !== null) dismissToast(validationToast.current)
    const result = await draft.submit(fields)
    if (result === 'invalid-files') {
      validationToast.current = showToast({
        title: submitToasts.invalid.title,
        variant: 'destructive',
      })
      attachmentsInput.current?.focus()
      return
    }
    announceSubmit(result, submitButton.current)
    if (result.kind === 'failed') return
    reset(EMPTY_CONTACT_FORM)
    setAboutDone(true)
    setSent({ inquiry: result.inquiry, queued: result.kind === 'queued' })
  }

  // The crypto loads when the visitor starts on the form, never on content pages.
  const preload = draft.preload

  const onInvalid = (fieldErrors: FieldErrors<SubmissionFieldsInput>) => {
    const requiredMissing = Object.entries(fieldErrors).some(
      ([field, error]) => requiredFields.has(field) && error?.type === 'too_small',
    )
    // One validation toast at a time, and none left behind once the message is sent.
    if (validationToast.current !== null) dismissToast(validationToast.current)
    validationToast.current = showToast({
      title: requiredMissing ? submitToasts.requiredMissing.title : submitToasts.invalid.title,
      variant: 'destructive',
    })
  }

  // Every send ends in a toast: fetch the toaster now, while the network is (probably) there.
  useEffect(() => whenIdle(preloadToaster), [])

  const fieldId = (name: string) => `${idPrefix}-${name}`

  return (
    <>
      {sent && (
        <InquiryPanel
          key={sent.inquiry.id}
          inquiry={sent.inquiry}
          queued={sent.queued}
          onAnother={() => {
            setSent(null)
            setFocus('name')
          }}
        />
      )}
      <form
        noValidate
        onFocus={preload}
        onInput={preload}
        onSubmit={(event) => handleSubmit(onValid, onInvalid)(event)}
      >
        <noscript>
          <div className="mb-5 rounded-xl border border-amber/50 bg-ink p-4 text-sm text-amber">
            <p>{formCopy.noScript.lead}</p>
            <ul className="mt-2 grid gap-1">
              {noScriptChannels().map(({ href, label, sealed }) => (
                <li key={href}>
                  <a href={href} className="underline underline-offset-4">
                    {label}
                  </a>
                  : {sealed}
                </li>
              ))}
            </ul>
          </div>
        </noscript>
        <fieldset disabled={!hydrated} className="grid gap-5">
          <legend className="sr-only">Your project</legend>
          <div className="grid gap-5 sm:grid-cols-2">
            {textInputs.map(({ name, copy, attributes }) => (
              <LimitedField
                key={name}
                control={control}
                name={name}
                id={fieldId(name)}
                label={copy.label}
                error={errors[name]}
              >
                {(a11y) => (
                  <input
                    {...a11y}
                    {...register(name)}
                    type="text"
                    required
                    {...attributes}
                    placeholder={copy.placeholder}
                    className={inputClasses}
                  />
                )}
              </LimitedField>
            ))}
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            {dropdowns.map(({ name, copy, options }) => (
              <FormField
                key={name}
                id={fieldId(name)}
                label={copy.label}
                error={errors[name]?.message}
              >
                {(a11y) => (
                  <select {...a11y} {...register(name)} className={inputClasses}>
                    <option value="">{copy.emptyOption}</option>
                    {options.map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
            ))}
          </div>
          <LimitedField
            control={control}
            name="message"
            id={fieldId('message')}
            label={formCopy.message.label}
            error={errors.message}
          >
            {(a11y) => (
              <textarea
                {...a11y}
                {...register('message')}
                required
                rows={6}
                placeholder={
                  about ? briefPlaceholderAbout(about.name) : formCopy.message.placeholder
                }
                className={`${inputClasses} min-h-[150px] resize-y`}
              />
            )}
          </LimitedField>
          <AttachmentsField
            id={fieldId('attachments')}
            inputRef={attachmentsInput}
            files={draft.files}
            onChange={draft.attach}
          />
          <button
            ref={submitButton}
            type="submit"
            disabled={isSubmitting}
            className="inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-full bg-mint px-6 py-3 font-semibold text-on-accent transition-colors hover:bg-mint-strong disabled:cursor-not-allowed disabled:opacity-70"
          >
            {isSubmitting ? formCopy.sending : formCopy.submit}
          </button>
          <p role="status" className="min-h-5 text-sm text-muted">
            {isSubmitting ? draft.progressLine : ''}
          </p>
        </fieldset>
      </form>
    </>
  )
}

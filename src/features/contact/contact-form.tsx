import { useCallback, useEffect, useId, useRef } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { FormField, inputClasses } from '../../components/form-field'
import { preloadToaster } from '../../components/toast/toast-host'
import { showToast } from '../../components/toast/toast-store'
import { useHydrated } from '../../lib/use-hydrated'
import { BUDGET_OPTIONS, PROJECT_TYPE_OPTIONS } from './contact-fields'
import { formCopy, submitToasts } from './contact-copy'
import {
  contactFormSchema,
  EMPTY_CONTACT_FORM,
  toSubmission,
  type ContactFormData,
  type ContactFormValues,
} from './contact-schema'
import { newSubmissionId } from './submission-id'
import { submitContact, type SubmitDependencies, type SubmitResult } from './submit-contact'
import { showFailedToast, showQueuedToast, showSentToast } from './submit-toasts'
import type { ReturnedSubmission } from './returned-submissions'
import { useReturnedSubmission } from './use-returned-submission'
import { zodResolver } from './zod-resolver'

const resolver = zodResolver(contactFormSchema)

const requiredFields: ReadonlySet<string> = new Set(['name', 'contact', 'message'])

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
    handleSubmit,
    reset,
    setValue,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ContactFormValues, unknown, ContactFormData>({
    defaultValues: EMPTY_CONTACT_FORM,
    resolver,
    shouldFocusError: true,
  })

  // A queued submission the backend later refused comes back here, so nothing typed is lost.
  // One id per draft: pressing Send again after a failure reuses it, so if the first attempt did
  // reach the database after all, the second answers 409 ("already received"), not a second row.
  const draftId = useRef<string | null>(null)
  // A refused submission restored into the form: sent again under its own id, and its outbox copy
  // released only once the database has it.
  const restored = useRef<ReturnedSubmission | null>(null)

  const restore = useCallback(
    (values: ContactFormValues, returned: ReturnedSubmission) => {
      restored.current = returned
      draftId.current = returned.submission.id
      // Marked dirty: restored text is the visitor's own, and must not be overwritten by another.
      for (const field of Object.keys(values) as (keyof ContactFormValues)[]) {
        setValue(field, values[field], { shouldDirty: true })
      }
    },
    [setValue],
  )
  useReturnedSubmission(restore, isDirty)

  const onValid = async (data: ContactFormData) => {
    draftId.current ??= newSubmissionId()
    const submission = toSubmission(data, { id: draftId.current, userAgent: navigator.userAgent })
    const result = await submitContact(submission, dependencies)
    announce(result)
    if (result.kind === 'failed') return
    // Queued under the same id, the outbox copy was replaced; delivered, it is no longer needed.
    if (result.kind === 'sent') await restored.current?.release()
    restored.current = null
    draftId.current = null
    reset(EMPTY_CONTACT_FORM)
  }

  const onInvalid = (fieldErrors: FieldErrors<ContactFormValues>) => {
    const requiredMissing = Object.entries(fieldErrors).some(
      ([field, error]) => requiredFields.has(field) && error?.type === 'too_small',
    )
    showToast({
      title: requiredMissing ? submitToasts.requiredMissing.title : submitToasts.invalid.title,
      variant: 'destructive',
    })
  }

  // Every send ends in a toast: fetch the toaster now, while the network is (probably) there.
  useEffect(preloadToaster, [])

  const fieldId = (name: string) => `${idPrefix}-${name}`

  return (
    <form noValidate onSubmit={(event) => handleSubmit(onValid, onInvalid)(event)}>
      <noscript>
        <p className="mb-5 rounded-xl border border-amber/50 bg-ink p-4 text-sm text-amber">{formCopy.noScript}</p>
      </noscript>
      <fieldset disabled={!hydrated} className="grid gap-5">
        <legend className="sr-only">Your project</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={fieldId('name')} label={formCopy.name.label} required error={errors.name?.message}>
            {(a11y) => (
              <input
                {...a11y}
                {...register('name')}
                type="text"
                required
                autoComplete="name"
                placeholder={formCopy.name.placeholder}
                maxLength={formCopy.name.maxLength}
                className={inputClasses}
              />
            )}
          </FormField>
          <FormField id={fieldId('contact')} label={formCopy.contact.label} required error={errors.contact?.message}>
            {(a11y) => (
              <input
                {...a11y}
                {...register('contact')}
                type="text"
                required
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                placeholder={formCopy.contact.placeholder}
                maxLength={formCopy.contact.maxLength}
                className={inputClasses}
              />
            )}
          </FormField>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField id={fieldId('projectType')} label={formCopy.projectType.label} error={errors.projectType?.message}>
            {(a11y) => (
              <select {...a11y} {...register('projectType')} className={inputClasses}>
                <option value="">{formCopy.projectType.emptyOption}</option>
                {PROJECT_TYPE_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField id={fieldId('budget')} label={formCopy.budget.label} error={errors.budget?.message}>
            {(a11y) => (
              <select {...a11y} {...register('budget')} className={inputClasses}>
                <option value="">{formCopy.budget.emptyOption}</option>
                {BUDGET_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        </div>
        <FormField id={fieldId('message')} label={formCopy.message.label} required error={errors.message?.message}>
          {(a11y) => (
            <textarea
              {...a11y}
              {...register('message')}
              required
              rows={6}
              placeholder={formCopy.message.placeholder}
              maxLength={formCopy.message.maxLength}
              className={`${inputClasses} min-h-[150px] resize-y`}
            />
          )}
        </FormField>
        <button
          type="submit"
          disabled={isSubmitting}
          className="inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-full bg-mint px-6 py-3 font-semibold text-on-accent transition-colors hover:bg-mint-strong disabled:cursor-not-allowed disabled:opacity-70"
        >
          {isSubmitting ? formCopy.sending : formCopy.submit}
        </button>
      </fieldset>
    </form>
  )
}

function announce(result: SubmitResult): void {
  switch (result.kind) {
    case 'sent':
      return showSentToast()
    case 'queued':
      return showQueuedToast()
    case 'failed':
      return showFailedToast(result.message, 'Contact submission failed:', result.cause)
  }
}

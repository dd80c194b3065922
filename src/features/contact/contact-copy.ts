import { LIMITS } from './contact-fields'

/** Spec §5 / §8: the one message for any required field that is empty after trimming. */
export const REQUIRED_FIELDS_MESSAGE = 'All required fields must be filled.'

/** The form's exact strings (spec §2 Secure Contact, §8 error catalogue). */
export const formCopy = {
  name: { label: 'Name / Alias', placeholder: 'Your name or preferred alias', maxLength: LIMITS.name },
  contact: { label: 'Primary Contact', placeholder: 'Email / Telegram / WhatsApp', maxLength: LIMITS.contact },
  projectType: { label: 'Project Type', emptyOption: 'Select project type' },
  budget: { label: 'Budget Range (Optional)', emptyOption: 'Select budget range' },
  message: {
    label: 'Project Brief',
    placeholder: 'Goals, timeline, markets, anything we should know. Share only what you are comfortable sharing.',
    maxLength: LIMITS.message,
  },
  requiredHint: 'Required',
  submit: 'Send Securely',
  sending: 'Encrypting & Sending...',
  noScript:
    'This form needs JavaScript to send your brief. With it switched off, reach us on Telegram or WhatsApp instead.',
} as const

export const submitToasts = {
  sent: {
    title: 'Message Sent Securely',
    description: "Your encrypted message has been received. We'll respond within 24 hours.",
  },
  failed: { title: 'Submission failed' },
  requiredMissing: { title: REQUIRED_FIELDS_MESSAGE },
  invalid: { title: 'Please check the highlighted fields.' },
  queued: {
    title: 'Saved on this device',
    description:
      'No connection right now. Your message is stored on this device and will be sent automatically as soon as the connection returns.',
  },
  /** When neither the network nor this device's storage could take the message. */
  notSaved: (reason: string) => `It could not be sent or saved on this device (${reason}). Your text is still in the form.`,
} as const

/** The offline indicator and the review of messages the backend refused. */
export const outboxCopy = {
  offline: 'Offline: pages you visited still open',
  waiting: (count: number) => `${count} ${count === 1 ? 'message' : 'messages'} waiting to send`,
  needsAttention: (count: number) => `${count} ${count === 1 ? 'message needs' : 'messages need'} your attention`,
  reviewTitle: 'Messages not sent',
  reviewIntro:
    'Our server refused these messages, so they were not delivered. They are kept on this device until you edit, resend or discard them.',
  edit: 'Edit in form',
  resend: 'Resend',
  discard: 'Discard',
  close: 'Close',
  empty: 'Nothing is waiting for you.',
} as const

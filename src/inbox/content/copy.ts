/** Every word the staff inbox shows, in one place. */
export const copy = {
  title: (agency: string) => `${agency} Inbox`,
  signIn: {
    heading: 'Sign in',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    failed: 'That email and password do not match an account.',
    tooMany: 'Too many attempts. Wait a few minutes, then try again.',
    keepSignedIn: 'Keep me signed in on this device',
    keepSignedInHint: (days: number) =>
      `Only on a phone or computer that is yours alone: for ${days} days, new tabs and restarts stay signed in here. The key still needs your passkey or passphrase.`,
    inAppBrowser:
      'This is an app’s own browser (Telegram’s, for one): it keeps nothing of the inbox. Open the installed inbox, or open this link in Safari or Chrome.',
    sessionEnded:
      'You were signed out: the session was ended, on this device or on another. Sign in again.',
    periodEnded: (days: number) =>
      `You were signed out: a device stays signed in for ${days} days at most. Sign in again.`,
  },
  code: {
    heading: 'Authentication code',
    enrolHeading: 'Set up your authenticator',
    enrolLead:
      'Scan the QR code with an authenticator app, or type the setup key into it. Then enter the 6-digit code it shows.',
    qrLabel: 'QR code for your authenticator app',
    setupKey: 'Setup key',
    copyKey: 'Copy setup key',
    copied: 'Copied',
    copyFailed: 'This browser did not copy it: type the setup key instead.',
    openApp: 'Open in the authenticator app on this phone',
    field: 'Authentication code',
    submit: 'Verify',
    wrong: 'That code is not right. Check the time on your phone and enter the newest code.',
  },
  key: {
    importHeading: 'Unlock the agency’s key on this device',
    importLead:
      'Paste the agency’s secret key (it starts with AGE-SECRET-KEY-1) or open its key file. It is kept on this device only, encrypted with the passphrase you choose.',
    secret: 'Secret key',
    file: 'Or open the key file',
    filePassphrase: 'Key file passphrase (only for a file encrypted with age -p)',
    fileLocked:
      'That key file is encrypted: enter the passphrase it was encrypted with, exactly as it was set.',
    noKeyGiven: 'Paste the secret key or open the key file.',
    passphrase: 'Passphrase',
    repeat: 'Repeat passphrase',
    save: 'Save and unlock',
    unlockHeading: 'Unlock',
    unlock: 'Unlock',
    notAKey: 'That is not an age secret key. It starts with AGE-SECRET-KEY-1.',
    mismatch: 'The two passphrases are not the same.',
    tooShort: 'Choose a passphrase of at least 10 characters.',
    wrongPassphrase: 'That passphrase does not unlock the key on this device.',
    forget: 'Remove the key from this device',
    addPasskey: 'Also unlock with a passkey on this device (fingerprint, face or screen lock)',
    passkeyUnlock: 'Unlock with passkey',
    passkeyName: (agency: string) => `${agency} Inbox key`,
    passkeyFailed: 'The passkey did not unlock the key. Try again, or use the passphrase.',
    passkeySetupFailed:
      'This device could not make a passkey that unlocks the key. The key is saved: it unlocks with the passphrase.',
  },
  list: {
    heading: 'Inquiries',
    empty: 'No inquiries.',
    noAccess: 'This account has no access to the inbox.',
    otherKey: (keyId: string) => `Sealed to another key (${keyId}): this device cannot open it.`,
    /** The inquiry's reference: what the staff alert and the visitor's panel show. */
    reference: (ref: string) => `Ref. ${ref}`,
    overdue: 'Overdue',
    /** A visitor wrote in the thread and nobody has answered yet. */
    awaiting: 'New message',
    due: (when: string) => `Due ${when}`,
    refresh: 'Refresh',
    release: 'Release to refresh',
    loadFailed: 'The inquiries could not be loaded. Check the connection and try again.',
    offline: (when: string) =>
      `Offline: this is the list as it was at ${when}. It refreshes when the connection returns.`,
    damaged: 'This inquiry could not be opened: what is stored is damaged.',
    times: (p50: string, p90: string, share: string) =>
      `Median answer ${p50}, 90% within ${p90}, ${share} within 24 hours (last 90 days)`,
  },
  detail: {
    back: 'All inquiries',
    name: 'Name',
    contact: 'Contact',
    projectType: 'Project type',
    budget: 'Budget',
    respondedBy: (who: string | null, when: string) => (who ? `${who}, ${when}` : when),
    awaitingSince: 'New message since',
    reference: 'Reference',
    received: 'Received',
    due: 'Answer by',
    status: 'Status',
    copy: 'Copy',
    copied: 'Copied',
    purged: (when: string) => `Closed: the database deletes it by ${when}.`,
    statusFailed: 'The status could not be changed. Check the connection and try again.',
    statusOffline: 'You are offline: the status is unchanged. Change it when you are back online.',
  },
  conversation: {
    heading: 'Conversation',
    inquiry: 'Inquiry from the visitor',
    fromVisitor: 'Visitor',
    fromAgency: (email: string | null) => (email ? `Reply by ${email}` : 'Reply'),
    loading: 'Opening the conversation on this device…',
    loadFailed:
      'The rest of the conversation could not be loaded. Check the connection and try again.',
    loadOffline: 'You are offline: the rest of the conversation shows when you are back online.',
    retry: 'Try again',
    cannotOpen: 'This message could not be opened: what is stored is damaged or was moved.',
    otherKey: 'This message is sealed to another key: this device cannot open it.',
    noThread:
      'This inquiry was sent before sealed replies: it has no sealed conversation. Answer on the visitor’s channel below.',
    closed: 'Closed: this conversation takes no more replies.',
    reply: 'Reply',
    replyHint:
      'Sealed on this device to the visitor and to the agency’s keys: the visitor reads it with their receipt, colleagues with the agency’s key.',
    send: 'Send sealed reply',
    sending: 'Sealing and sending…',
    sent: 'Reply sent, sealed. The inquiry is marked responded.',
    empty: 'Write the reply first.',
    offline:
      'You are offline: the reply was not sent. It is still in the field: send it when you are back online.',
    failed:
      'The reply could not be sent. It is still in the field: check the connection and try again.',
    refusedClosed: 'This inquiry is closed: it takes no more replies.',
    unsealable:
      'This inbox cannot seal a reply: it was built without the agency’s keys. Ask whoever deploys it to set VITE_SUBMISSION_RECIPIENTS.',
  },
  channels: {
    heading: 'Answer on the visitor’s channel',
    email: 'Answer by email',
    telegram: 'Answer on Telegram',
    whatsapp: 'Answer on WhatsApp',
    outsideSeal:
      'Outside the seal: the first message quotes the reference and nothing else. Write nothing sensitive there.',
    copyFirst: 'Copy first message',
    copied: 'Copied',
    none: 'The contact the visitor gave is not an email address, a Telegram username or a phone number.',
  },
  /** A row's status as staff read it, and the buttons that set it. */
  statuses: {
    new: 'New',
    responded: 'Responded',
    engaged: 'Engaged',
    completed: 'Completed',
    declined: 'Declined',
  },
  lock: 'Lock',
  signOut: 'Sign out',
  /** The account's own section, at the foot of every signed-in screen, apart from "Lock". */
  account: {
    heading: 'This account',
    signOutHint: 'Sign out ends the session on this device only.',
    signOutEverywhere: 'Sign out everywhere',
    signOutEverywhereHint:
      'Sign out everywhere ends it on every phone and browser signed in to this account, this one included.',
    passwordHeading: 'Change password',
    newPassword: 'New password',
    repeatPassword: 'Repeat new password',
    changePassword: 'Change password',
    changed:
      'Password changed. Every other device signed in to this account is signed out; this one stays.',
    mismatch: 'The two passwords are not the same.',
    tooShort: (min: number) => `Choose a password of at least ${min} characters.`,
    tooLong: 'That password is too long: at most 72 bytes (about 72 letters, fewer with accents).',
    same: 'That is the current password: choose a new one.',
    needsCode:
      'Changing the password needs the authentication code: sign out, sign in again with the code, then change it.',
    failed: 'The password could not be changed. Check the connection and try again.',
  },
  unexpected: 'Something went wrong. Try again; if it keeps happening, sign out and in again.',
} as const

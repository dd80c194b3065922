import type { OrderNotice } from '../../shared/conversation/thread-order'

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
    addPasskey: 'Also unlock with a passkey on this device (fingerprint, face or screen lock)',
    passkeyUnlock: 'Unlock with passkey',
    passkeyName: (agency: string) => `${agency} Inbox key`,
    passkeyFailed: 'The passkey did not unlock the key. Try again, or use the passphrase.',
    passkeySetupFailed:
      'This device could not make a passkey that unlocks the key. The key is saved: it unlocks with the passphrase.',
    passkeyNeedsName: (port: string) =>
      `Passkeys work only at a named address, not at an IP address like this one: open the inbox at http://localhost${port ? `:${port}` : ''} to add one.`,
    usePassphrase: 'Use the passphrase instead',
    forgotPassphrase: 'Forgot your passphrase? Remove the key from this device',
    forgetConfirm:
      'Remove the key from this device? The inbox cannot open anything here until the key is imported again or this device is linked from an unlocked one. The agency’s other devices keep it.',
    forgetYes: 'Remove the key',
    forgetNo: 'Keep the key',
    forgotten: 'The key was removed from this device.',
    linkInstead:
      'Already unlocked on another device? Link this one with a code instead of pasting the key.',
    keepHeading: 'Keep the key on this device',
    keepLead:
      'The key arrived from your other device. Choose a passphrase for this device: the key is kept here encrypted with it.',
    offerHeading: 'Unlock with a passkey next time?',
    offerLead:
      'One tap and your fingerprint, face or screen lock, instead of typing the passphrase. The passphrase still works.',
    offerYes: 'Add a passkey',
    offerNo: 'Not now',
    offerDone: 'Passkey added: next time, unlock with it.',
  },
  devices: {
    link: 'Link this device',
    linkHeading: 'Link this device',
    linkLead:
      'On a device where the inbox is unlocked, choose “Add a device” and type these five words. They work once, for 10 minutes.',
    code: 'Linking code',
    qrLabel: (code: string) =>
      `QR code for the unlocked device’s camera: it opens “Add a device” with ${code}`,
    starting: 'Making a one-time key on this device…',
    waiting: 'Waiting for the other device…',
    compareHeading: 'Compare the codes',
    compareLead:
      'The other device now shows a comparison code. Save the key only if it is this one:',
    matches: 'It matches: keep the key',
    differ: 'The codes differ',
    refused:
      'The codes differ: nothing was saved. What passed between the devices may have been changed. Start again; if it happens again, tell whoever runs the inbox.',
    expired: 'The linking code has expired or was used. Start again for a new one.',
    again: 'Start again',
    cancel: 'Cancel',
    openFailed: 'This device could not be linked. Check the connection and try again.',
    broken: 'What arrived could not be opened on this device. Start again.',
    add: 'Add a device',
    addHeading: 'Add a device',
    addLead:
      'On the new device, sign in and choose “Link this device”. Type the five words it shows.',
    addSubmit: 'Send the key to that device',
    notACode: 'That is not a linking code: five words, as the new device shows them.',
    noSuchLink:
      'No device is waiting for that code. Check the words; a code works once, for 10 minutes.',
    wrongKey:
      'The server answered with a key that does not belong to this code: nothing was sent. Tell whoever runs the inbox.',
    addFailed: 'The key could not be sent. Check the connection and try again.',
    sentLead:
      'Sealed to that device only. It shows a comparison code now: it must be this one. If it is not, choose “The codes differ” there, and it saves nothing.',
    done: 'Done',
  },
  list: {
    heading: 'Inquiries',
    empty: 'No inquiries.',
    noAccess: 'This account has no access to the inbox.',
    otherKey: (keyId: string) => `Sealed to another key (${keyId}): this device cannot open it.`,
    reference: (ref: string) => `Ref. ${ref}`,
    overdueBy: (span: string) => `Overdue by ${span}`,
    dueIn: (span: string) => `due in ${span}`,
    deletedIn: (span: string) => `deleted in ${span}`,
    awaiting: 'New message',
    search: 'Search the opened inquiries',
    searchHint: 'Searched on this device only: what you type is never sent or kept.',
    statusFilter: 'Status',
    allStatuses: 'All',
    overdueOnly: 'Overdue only',
    matching: (count: number, total: number) =>
      count === total ? `${total} inquiries` : `${count} of ${total} inquiries`,
    noMatch: 'No opened inquiry matches.',
    opening: (opened: number, total: number | null) =>
      total === null
        ? `Opening on this device: ${opened} so far…`
        : `Opening on this device: ${opened} of ${total}…`,
    showMore: (count: number) => `Show ${count} more`,
    refresh: 'Refresh',
    release: 'Release to refresh',
    loadFailed: 'The inquiries could not be loaded. Check the connection and try again.',
    offline: (when: string) =>
      `Offline: this is the list as it was at ${when}. It refreshes when the connection returns.`,
    damaged: 'This inquiry could not be opened: what is stored is damaged.',
    wrongId:
      'This row holds another inquiry’s sealed document, so it is not shown: someone with write access to the database moved it there.',
    replaced:
      'Warning: this inquiry was replaced. The database now holds another document than the one this device first opened, so it is not shown and takes no replies: someone with write access to the database may be posing as the visitor.',
    times: (answered: number, p50: string, p90: string, share: string, unanswered: number) =>
      (answered > 0
        ? `Last 90 days: ${answered} answered, median ${p50}, 90% within ${p90}, ${share} within 24 hours`
        : 'Last 90 days: none answered yet') +
      (unanswered > 0 ? `; ${unanswered} closed without an answer` : ''),
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
    confirmClose: (status: string, when: string) =>
      `Mark it ${status.toLowerCase()}? The database then deletes this inquiry and its conversation by ${when}, on every device. Reopening it before then keeps it.`,
    confirm: (status: string) => `Yes, mark ${status.toLowerCase()}`,
    cancel: 'Cancel',
    statusFailed: 'The status could not be changed. Check the connection and try again.',
    statusOffline: 'You are offline: the status is unchanged. Change it when you are back online.',
  },
  attachments: {
    heading: 'Attachments',
    download: 'Download',
    downloadLabel: (name: string) => `Download ${name}`,
    noType: 'type not given',
    working: 'Downloading and opening on this device…',
    opened:
      'Opened on this device and checked: it is the file the visitor sealed. Saved to your downloads.',
    mismatch:
      'This file opened, but it is not the file the visitor sealed (its fingerprint does not match). It was not saved; do not trust a copy of it from elsewhere.',
    'other-key': 'This file is sealed to another key: this device cannot open it.',
    damaged:
      'This file could not be opened: what is stored is damaged or incomplete. It was not saved.',
    'too-large':
      'This file is too large to open on this device. Open it on a computer with more memory, or with `age -d` and the agency’s key.',
    offline:
      'The file could not be fetched: you are offline or the server cannot be reached. Try again.',
    busy: 'The server is busy right now, so the file could not be fetched. Try again in a minute.',
    'not-found': 'The file is no longer stored: it may have been removed with its inquiry.',
    failed: 'The file could not be fetched. Check the connection and try again.',
    reply: {
      opened:
        'Opened on this device and checked: it is the file the agency sent. Saved to your downloads.',
      mismatch:
        'This file opened, but it is not the file the reply lists (its fingerprint does not match). It was not saved.',
    },
  },
  conversation: {
    heading: 'Conversation',
    inquiry: 'Inquiry from the visitor',
    fromVisitor: 'Visitor',
    fromNobody: 'Not from the agency',
    orderLabel: 'What the conversation’s order says',
    fromAgency: (email: string | null) => (email ? `Reply by ${email}` : 'Reply'),
    loading: 'Opening the conversation on this device…',
    loadFailed:
      'The rest of the conversation could not be loaded. Check the connection and try again.',
    loadOffline: 'You are offline: the rest of the conversation shows when you are back online.',
    retry: 'Try again',
    cannotOpen: 'This message could not be opened: what is stored is damaged or was moved.',
    otherKey: 'This message is sealed to another key: this device cannot open it.',
    notFromAgency:
      'Not from the agency: this reply is not signed with the agency’s key, so someone with write access to the database wrote it. Its text is not shown.',
    notFromVisitor:
      'Refused: this message is not signed with the key in the visitor’s inquiry, so someone with write access to the database wrote it. Its text is not shown.',
    order: (notice: OrderNotice) => {
      const whose = notice.from === 'agency' ? 'The agency’s reply' : 'The visitor’s message'
      switch (notice.kind) {
        case 'missing':
          return `${whose} number ${notice.seq} is missing: the database did not give it.`
        case 'repeated':
          return `${whose} number ${notice.seq} is shown more than once.`
        case 'out-of-place':
          return `${whose} number ${notice.seq} is out of place: it was sent before one shown above it.`
        case 'answers-unseen':
          return `${whose} number ${notice.seq} answers a message that is not shown above it.`
      }
    },
    closed: 'Closed: this conversation takes no more replies.',
    reply: 'Reply',
    replyHint:
      'Sealed on this device to the visitor and to the agency’s keys: the visitor reads it with their receipt, colleagues with the agency’s key.',
    send: 'Send sealed reply',
    sending: 'Sealing and sending…',
    sent: 'Reply sent, sealed. The inquiry is marked responded.',
    empty: 'Write the reply first.',
    offline:
      'You are offline: the reply was not sent. It is still in the field, with its files: send it when you are back online.',
    failed:
      'The reply could not be sent. It is still in the field, with its files: check the connection and try again.',
    refusedClosed: 'This inquiry is closed: it takes no more replies.',
    files: 'Files (optional)',
    filesHint: (files: number, perFile: string) =>
      `Up to ${files} files, up to ${perFile} each, any type; sealed on this device to the visitor and the agency’s keys, names included.`,
    filesListLabel: 'Files for this reply',
    remove: 'Remove',
    removeLabel: (name: string) => `Remove ${name}`,
    tooMany: (count: number, limit: number) =>
      `${count} files are attached; a reply takes ${limit}. Remove ${count - limit} to send.`,
    tooLarge: (name: string, size: string, perFile: string) =>
      `“${name}” is ${size}; a file may be ${perFile} at most. Remove it, or attach a smaller version.`,
    emptyFile: (name: string) =>
      `“${name}” is empty (0 bytes). Remove it, or attach the right file.`,
    sealingFiles: 'Sealing the files on this device…',
    uploading: (sent: string, total: string) => `Uploading the sealed files: ${sent} of ${total}`,
    filesRefused:
      'The server refused the files, so nothing was sent: the inquiry may have been closed meanwhile. The reply and its files are still here.',
    fileUnreadable:
      'A file could not be read (moved, deleted or changed since it was picked), so nothing was sent. Remove it and attach it again.',
    tooLong:
      'This reply is too long to seal with these files’ names: shorten it, or send some of the files in another reply. Nothing was sent.',
    busy: 'The server is busy right now, so nothing was sent. The reply and its files are still here: try again in a minute.',
    messageFiles: 'Files of this message',
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
  statuses: {
    new: 'New',
    responded: 'Responded',
    engaged: 'Engaged',
    completed: 'Completed',
    declined: 'Declined',
  },
  lock: 'Lock',
  signOut: 'Sign out',
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
    removeHeading: 'Remove this device',
    removeHint:
      'For a device you hand back or no longer trust: it removes everything the inbox keeps on it.',
    remove: 'Remove this device',
    removeConfirm:
      'This removes from this device the agency’s key (its encrypted copy and its passkey copy; the passkey itself stays in the device’s password manager and opens nothing without it), the trusted sign-in, the inquiries kept for reading offline, the saved app and its service worker, then signs out. To use the inbox here again you will need the key file, or a link from another device.',
    removeConfirmButton: 'Remove everything',
    removeCancel: 'Keep this device',
    removing: 'Removing…',
    removed: 'This device was removed: the inbox keeps nothing on it any more. Close this tab.',
    buildId: 'Inbox build',
    buildIdUnreadable: 'not readable now (offline?)',
  },
  update: {
    heading: 'A new version of the inbox',
    ready: (buildId: string | null) =>
      `A new version of this inbox is waiting${buildId ? `, build ${buildId}` : ''}. It runs only when you press Update: first check that build id against the list of releases the agency publishes in the pinned post of its Telegram channel.`,
    take: 'Update',
  },
  unexpected: 'Something went wrong. Try again; if it keeps happening, sign out and in again.',
} as const

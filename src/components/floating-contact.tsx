import { site } from '../content/site'
import { SmartLink } from './action-link'
import { ChannelIcon, type ChannelIconName } from './channel-icon'
import { useTyping } from './use-typing'

/**
 * On phones a bar across the bottom with both channels side by side, exactly --quick-bar tall (the
 * outbox's status stacks on it), drawn as quiet buttons in the channels' colours so that the page's
 * own call to action stays the one primary; from 640px up a column of two round buttons at the
 * bottom right, which the page's side margin keeps clear of content (`quick-contact` and
 * `page-gutter`, styles.css). Either
 * way the space is reserved: the footer ends with --bottom-reserve of padding and the page's scroll
 * padding keeps a scrolled-to or focused control clear of it (styles.css), so a thumb aimed at a
 * button never lands on a chat link instead.
 */
const buttonClasses =
  'flex h-11 items-center justify-center gap-2 rounded-full border border-line text-sm font-semibold shadow-lg shadow-black/40 transition-transform sm:size-13 sm:hover:-translate-y-0.5'

type QuickChannel = {
  kind: 'telegram' | 'whatsapp'
  ariaLabel: string
  label: string
  icon: ChannelIconName
  colours: string
}

const QUICK_CHANNELS: readonly QuickChannel[] = [
  {
    kind: 'telegram',
    ariaLabel: 'Chat on Telegram',
    label: site.telegramLabel,
    icon: 'send',
    colours: 'bg-sky text-on-accent',
  },
  {
    kind: 'whatsapp',
    ariaLabel: 'Message on WhatsApp',
    label: site.whatsappLabel,
    icon: 'message',
    colours: 'bg-mint text-on-accent',
  },
]

/**
 * Spec §2: floating Telegram and WhatsApp buttons, at the bottom right, on every page. They step
 * aside (slide away, out of the tab order) while the visitor is typing, so they never sit on the
 * form or over Send Securely, and come back when the field is left.
 */
export function FloatingContact() {
  const typing = useTyping()
  return (
    <aside
      aria-label="Quick contact"
      data-aside={typing || undefined}
      className="quick-contact fixed inset-x-0 bottom-0 z-30 grid h-[var(--quick-bar)] grid-cols-2 content-start gap-3 border-t border-line bg-ink/90 pt-1.5 pr-[max(1rem,var(--safe-right))] pb-[calc(0.375rem+var(--safe-bottom))] pl-[max(1rem,var(--safe-left))] backdrop-blur-md transition-[translate,visibility] duration-200 data-aside:invisible data-aside:translate-y-full sm:inset-x-auto sm:right-[calc(1.5rem+var(--safe-right))] sm:bottom-[calc(1.5rem+var(--safe-bottom))] sm:flex sm:h-auto sm:border-0 sm:bg-transparent sm:p-0 sm:backdrop-blur-none sm:data-aside:translate-y-[calc(100%+2rem)]"
    >
      {QUICK_CHANNELS.map((channel) => (
        <SmartLink
          key={channel.kind}
          target={{ kind: channel.kind }}
          aria-label={channel.ariaLabel}
          className={`${buttonClasses} ${channel.colours}`}
        >
          <ChannelIcon name={channel.icon} className="size-5 sm:size-6" />
          <span className="sm:sr-only">{channel.label}</span>
        </SmartLink>
      ))}
    </aside>
  )
}

import { SmartLink } from './action-link'
import { ChannelIcon } from './channel-icon'

const buttonClasses =
  'flex size-14 items-center justify-center rounded-full border border-line shadow-lg shadow-black/40 transition-transform hover:-translate-y-0.5'

/** Spec §2: floating Telegram and WhatsApp buttons, bottom right, on every page. */
export function FloatingContact() {
  return (
    <aside aria-label="Quick contact" className="fixed right-4 bottom-4 z-30 flex flex-col gap-3 sm:right-6 sm:bottom-6">
      <SmartLink target={{ kind: 'telegram' }} aria-label="Chat on Telegram" className={`${buttonClasses} bg-sky text-on-accent`}>
        <ChannelIcon name="send" className="size-6" />
      </SmartLink>
      <SmartLink target={{ kind: 'whatsapp' }} aria-label="Message on WhatsApp" className={`${buttonClasses} bg-mint text-on-accent`}>
        <ChannelIcon name="message" className="size-6" />
      </SmartLink>
    </aside>
  )
}

import { PageIntro } from '../components/page-intro'
import { ForgetDevice } from '../features/contact/forget-device'
import { repliesIntro } from '../content/replies-page'
import { browserRepliesDependencies } from '../features/replies/replies-browser'
import { RepliesReader } from '../features/replies/replies-reader'

export function RepliesPage() {
  return (
    <>
      <PageIntro page="replies" intro={repliesIntro} />
      <div className="mx-auto page-gutter max-w-3xl [--page-width:48rem] py-16">
        <div className="surface-card p-6 sm:p-8">
          <RepliesReader dependencies={browserRepliesDependencies} />
        </div>
        {/* Where a visitor who kept a receipt on this device comes back: the way to leave no trace. */}
        <div className="mt-8">
          <ForgetDevice />
        </div>
      </div>
    </>
  )
}

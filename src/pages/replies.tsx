import { PageIntro } from '../components/page-intro'
import { repliesIntro } from '../content/replies-page'
import { browserRepliesDependencies } from '../features/contact/replies/replies-browser'
import { RepliesReader } from '../features/contact/replies/replies-reader'

export function RepliesPage() {
  return (
    <>
      <PageIntro page="replies" intro={repliesIntro} />
      <div className="mx-auto page-gutter max-w-3xl [--page-width:48rem] py-16">
        <div className="surface-card p-6 sm:p-8">
          <RepliesReader dependencies={browserRepliesDependencies} />
        </div>
      </div>
    </>
  )
}

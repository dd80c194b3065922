import { Component, type ReactNode } from 'react'
import { RouteError } from './route-error'

type Props = { children: ReactNode }
type State = { error: unknown; failed: boolean }

/**
 * Catches an unexpected failure while opening a page (code that will not load, a render that
 * throws) and shows the generic fallback inside the site's frame. The layout keys it by address,
 * so navigating elsewhere starts afresh.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, failed: false }

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true }
  }

  render() {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children
  }
}

import { useEffect, useState } from 'react'
import { fetchBuildId } from './build-id'

/**
 * The build id of what the host serves, for both apps' displays: undefined while reading (and in
 * a prerendered page), null when it cannot be read.
 */
export function useBuildId(): string | null | undefined {
  const [buildId, setBuildId] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    let current = true
    void fetchBuildId().then((id) => current && setBuildId(id))
    return () => {
      current = false
    }
  }, [])
  return buildId
}

import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { Inquiry } from './inquiry'
import { loadInquiries, loadResponseTimes, type ListOutcome } from './inbox-data'

const LIST = ['inquiries']

export type Progress = { opened: number; total: number | null }

/**
 * The list, opened on this device. Coming back to the front refetches it without restarting an
 * opening under way ("Refresh" and a pull restart it). The first load shows rows as they open; a
 * refresh keeps the list on screen until the new one is wholly open.
 */
export function useInquiryList(
  identities: string[],
  reference: string | null,
  onRefused: () => Promise<void>,
) {
  const client = useQueryClient()
  const [progress, setProgress] = useState<Progress | null>(null)
  const list = useQuery({
    queryKey: LIST,
    queryFn: async ({ signal }): Promise<ListOutcome> => {
      const shown = client.getQueryData<ListOutcome>(LIST)
      const previous = shown?.kind === 'list' ? shown.inquiries : []
      const outcome = await loadInquiries(identities, {
        signal,
        previous,
        reference,
        onProgress: ({ inquiries, opened, total }) => {
          if (signal.aborted) return
          if (previous.length === 0)
            client.setQueryData(LIST, { kind: 'list', inquiries, offlineSince: null })
          setProgress({ opened, total })
        },
      })
      setProgress(null)
      if (outcome.kind === 'no-access') await onRefused()
      return outcome
    },
  })
  const outcome = list.data
  const times = useQuery({
    queryKey: ['response-times'],
    queryFn: loadResponseTimes,
    // A nicety: asked for once the list is in, not when it is the copy kept offline.
    enabled: outcome?.kind === 'list' && outcome.offlineSince === null,
  })
  const replace = useCallback(
    (changed: Inquiry) =>
      client.setQueryData<ListOutcome>(LIST, (current) =>
        current?.kind === 'list'
          ? {
              ...current,
              inquiries: current.inquiries.map((i) => (i.id === changed.id ? changed : i)),
            }
          : current,
      ),
    [client],
  )
  const { refetch } = list
  const refresh = useCallback(() => void refetch(), [refetch])
  return {
    inquiries: outcome?.kind === 'list' ? outcome.inquiries : outcome ? [] : null,
    offlineSince: outcome?.kind === 'list' ? outcome.offlineSince : null,
    problem: outcome?.kind === 'list' ? null : (outcome?.kind ?? null),
    progress,
    opening: list.isFetching,
    times: times.data ?? null,
    refresh,
    replace,
  }
}

export type InquiryList = ReturnType<typeof useInquiryList>

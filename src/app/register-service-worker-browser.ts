import { markOfflineReady } from '../components/offline-ready'
import { dismissToast, getToasts, showToast } from '../components/toast/toast-store'
import { appUpdateCopy } from '../content/app-update'

/**
 * Registers the service worker, in the browser only and after the page has loaded, so installing
 * it never competes with the first paint. Updates wait for the visitor (README, "Decisions":
 * updates by prompt): "A new version is available" stays until they choose Reload, and only the
 * tab where they chose it reloads. Other open tabs are told, never reloaded under a half-typed brief.
 */
export async function registerServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return
  const { registerSW } = await import('virtual:pwa-register')
  let reloadChosenHere = false
  let promptId: number | undefined

  const reloadWhenNewWorkerControls = async () => {
    reloadChosenHere = true
    const waiting = (await navigator.serviceWorker.getRegistration())?.waiting
    // Another tab already switched to the new version: this page only needs to reload.
    if (!waiting) return window.location.reload()
    // workbox-window reloads by itself only if the page was controlled when it registered; on the
    // visit that first installed the worker it would not, hence this listener.
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
      once: true,
    })
    await updateServiceWorker(true)
  }

  const updateServiceWorker = registerSW({
    immediate: true,
    // The first install cached the site. Said quietly in the footer: a notice over the page would
    // sit on the hero (or the open menu) of a first visit, to say something technical.
    onOfflineReady: markOfflineReady,
    onNeedRefresh() {
      // vite-plugin-pwa may call this twice for one new worker ("waiting", and "installed" when
      // another tab registered it): one prompt is enough.
      if (getToasts().some((toast) => toast.id === promptId && toast.open)) return
      promptId = showToast({
        ...appUpdateCopy.updateAvailable,
        duration: Infinity,
        action: {
          label: appUpdateCopy.reload,
          altText: appUpdateCopy.reloadAltText,
          onSelect: () => void reloadWhenNewWorkerControls(),
        },
      })
    },
    // The new worker took control of this page: chosen here, reload; chosen in another tab, say so.
    onNeedReload() {
      if (reloadChosenHere) return window.location.reload()
      if (promptId !== undefined) dismissToast(promptId)
      showToast({
        ...appUpdateCopy.activatedElsewhere,
        duration: Infinity,
        action: {
          label: appUpdateCopy.reload,
          altText: appUpdateCopy.reloadAltText,
          onSelect: () => window.location.reload(),
        },
      })
    },
  })
}

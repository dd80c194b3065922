/**
 * Where toasts show, for both toasters. On phones: at the bottom, on the quick-contact bar (over
 * the outbox's status lines unless they hold a button: --toast-floor, styles.css),
 * where a thumb can reach an action and the page's heading stays in view, or under the header
 * when the control in use is low on the screen (`toastPlacementClasses`, see toast-placement.ts;
 * the Radix toaster only: the plain one, a fallback, is in every page's script and stays small).
 * From 640px up: top right, under the header.
 */
export const toastRegionClasses =
  'fixed inset-x-0 bottom-[calc(var(--toast-floor)+0.25rem)] z-50 m-0 flex list-none flex-col gap-2 pr-[max(0.75rem,var(--safe-right))] pl-[max(0.75rem,var(--safe-left))] outline-none sm:inset-x-auto sm:top-[calc(var(--header-offset)+0.75rem)] sm:right-[var(--safe-right)] sm:bottom-auto sm:w-full sm:max-w-md sm:gap-3 sm:p-4'

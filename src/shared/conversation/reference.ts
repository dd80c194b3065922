/**
 * An inquiry's reference: the first 8 characters of its id (a UUID made in the browser). The staff
 * alert, the inbox and the visitor's panel all show it, so both sides can name one inquiry without
 * saying anything about it.
 */
export const REFERENCE_LENGTH = 8

export const referenceOf = (id: string) => id.slice(0, REFERENCE_LENGTH)

/**
 * What a sealed document says of a file besides its bytes: its name and its type, as the person
 * who picked it sees them, kept within what every reader accepts (the documents' schemas take at
 * most FILE_LABEL_MAX characters of each). The contact form and the inbox's replies list their files
 * through here, so a name a file system allows but a reader refuses never makes a document that
 * cannot be opened.
 */

/** The most characters (UTF-16 units, as zod counts) of a name or type a sealed document lists. */
export const FILE_LABEL_MAX = 255

/**
 * A file's name as a document lists it: within FILE_LABEL_MAX, cut in the middle of the stem
 * rather than the end, so the extension (what opens it) survives; never empty.
 */
export function listedFileName(name: string): string {
  if (name.length <= FILE_LABEL_MAX) return name || 'file'
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ''
  // Whole code points, so no half of a surrogate pair is left at the cut.
  let stem = ''
  for (const point of name.slice(0, name.length - extension.length)) {
    if (stem.length + point.length + extension.length > FILE_LABEL_MAX) break
    stem += point
  }
  return stem + extension
}

/** A media type as browsers give them: `type/subtype`, with parameters, printable ASCII. */
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(;[\x20-\x7e]*)?$/i

/**
 * A file's type as a document lists it: the browser's media type when it is one and fits, else
 * none (the reader then hands the file over as `application/octet-stream`).
 */
export function listedFileType(type: string): string {
  return type.length <= FILE_LABEL_MAX && MEDIA_TYPE.test(type) ? type : ''
}

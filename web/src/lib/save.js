// Saves a file through a temporary link (no server, works from file://). The link goes in `near`
// (the document's body by default): an embedded figure keeps it inside its own element.
export function saveBlob(filename, blob, near = document.body) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  near.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Text of a MIME type, as UTF-8. */
export const saveText = (filename, text, type, near) =>
  saveBlob(filename, new Blob([text], { type: `${type};charset=utf-8` }), near);

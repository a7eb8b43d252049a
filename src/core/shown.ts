/**
 * What an error message shows of a name or URI the client sent: the message goes into the model's
 * context, so a long one is cut (the whole of it goes back in the error's data where it helps).
 */
const MAX_SHOWN = 200;

export function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

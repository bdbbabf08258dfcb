// An update carries only what changed in the seat's view (docs/protocol.md, the wire format):
// the events new since the last one, the fields replaced ("set") and the lists grown at their
// end ("add"). This is the page's counterpart of atout.engine.wire.apply_view_delta.

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The view after an update: a new object, `view` untouched. `null` when the update does not fit
 * the view (no view to apply it to, a member of the wrong shape, a list grown that the view does
 * not hold as a list): the caller then asks the server for a full state.
 */
export function applyUpdate(view, update) {
  if (!isObject(view) || !isObject(update)) return null;
  const set = update.set ?? {};
  const add = update.add ?? {};
  const events = update.events ?? [];
  if (!isObject(set) || !isObject(add) || !Array.isArray(events)) return null;
  const next = { ...view };
  for (const [field, value] of Object.entries(set)) {
    if (field === "__proto__") return null; // a name no view has, which would reach the prototype
    next[field] = value;
  }
  for (const [field, items] of Object.entries(add)) {
    if (!Object.hasOwn(next, field) || !Array.isArray(next[field]) || !Array.isArray(items)) return null;
    next[field] = next[field].concat(items);
  }
  if (!Array.isArray(next.events)) return null;
  next.events = next.events.concat(events);
  return next;
}

// The items List* calls answer with, kept per store record while what they show is unchanged, and
// frozen: the list encoder (internal/api/list_encoding.ts) then encodes each item once instead of
// at every call (the kubelet lists every pod and container each second). A record's view is made
// again when its key (what can change in it: its state, say) changes; the rest of what a view
// shows is fixed when the record is created.
export class ListViews<Stored extends object, View extends object> {
  private readonly views = new WeakMap<Stored, { key: string; view: Readonly<View> }>();

  constructor(
    private readonly make: (record: Stored) => View,
    private readonly keyOf: (record: Stored) => string,
  ) {}

  of(record: Stored): Readonly<View> {
    const key = this.keyOf(record);
    const kept = this.views.get(record);
    if (kept !== undefined && kept.key === key) return kept.view;
    const view = Object.freeze(this.make(record));
    this.views.set(record, { key, view });
    return view;
  }
}

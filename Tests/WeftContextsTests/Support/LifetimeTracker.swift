/// Records weak references to the objects a test made, to check at the end that none
/// outlived it.
///
/// ```swift
/// let lifetimes = LifetimeTracker()
/// do {
///   let context = lifetimes.track(Context.global.createSubcontext(named: "T"))
///   ...
/// }
/// #expect(lifetimes.survivors.isEmpty)
/// ```
@MainActor
final class LifetimeTracker {
  private struct Entry {
    let name: String
    weak var object: AnyObject?
  }

  private var entries: [Entry] = []

  /// Tracks `object` under `name` (its type name by default) and returns it.
  @discardableResult
  func track<Object: AnyObject>(_ object: Object, _ name: String? = nil) -> Object {
    entries.append(Entry(name: name ?? String(describing: Object.self), object: object))
    return object
  }

  /// The names of tracked objects still alive.
  var survivors: [String] { entries.filter { $0.object != nil }.map(\.name) }

  /// Number of tracked objects.
  var count: Int { entries.count }
}

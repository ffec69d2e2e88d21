/// The per-element bookkeeping of `forEach`, shared by its set form and its keyed form: which
/// elements are present, the launch each one has, which launches are still running, and the
/// diff of one new collection against the present elements.
///
/// `update` makes exactly one pass over the new collection: a hash look-up and a stamp per
/// element. An element found present stays (the `stay` callback sees it; the set form does
/// nothing, the keyed form compares its value). An element not found appears. When fewer
/// elements stayed than were present, the entries whose stamp is old have left; they are
/// found by one scan of the entries (no hashing), and only when something left. Leavers are
/// handled first, in launch order, then elements that appeared, in the collection's order,
/// so logs and tests are deterministic.
///
/// An element whose launch ended on its own stays present, and is not launched again until
/// it leaves and comes back.
///
/// - Complexity: per `update`, O(n) look-ups for n elements in the new collection, plus
///   O(r) for r present elements only when at least one left, plus O(a + l log l) for a
///   that appeared and l that left.
/// - Note: Isolation: a value; the reactors keep it on the system's host.
/// - Note: Allocations: none for elements that stay. The scratch lists for elements that
///   appeared or left keep their capacity between updates, so a steady state allocates
///   nothing here; the dictionaries grow (amortized) as elements appear.
struct ElementLaunches<Key: Hashable, Element, Slot> {
  private struct Entry {
    var serial: UInt64
    /// The `update` that last saw this element.
    var stamp: UInt64
    var slot: Slot
  }

  /// Each present element, with its launch.
  private var present: [Key: Entry] = [:]
  /// Launches not yet ended or cancelled, with their element; only these are ever cancelled.
  private var running: [UInt64: Key] = [:]
  private var lastSerial: UInt64 = 0
  private var stamp: UInt64 = 0
  /// Scratch lists, emptied after each update but keeping their capacity.
  private var appearing: [Element] = []
  private var leaving: [(serial: UInt64, key: Key)] = []

  /// How many elements are present.
  var presentCount: Int { present.count }

  /// How many launches are running (neither ended nor cancelled).
  var runningCount: Int { running.count }

  /// The serial of `key`'s launch, if the element is present.
  func serial(of key: Key) -> UInt64? { present[key]?.serial }

  /// Diffs `elements` against the present ones and tells the caller what to do.
  ///
  /// - Parameters:
  ///   - elements: the new collection; every element's key must be distinct (a `Set`, the
  ///     pairs of a `Dictionary`).
  ///   - key: the key of an element.
  ///   - stay: called for each element that was present and is still there, with its slot.
  ///   - cancel: called for each element that left while its launch was running, in launch
  ///     order, with the launch's serial and the element's slot.
  ///   - launch: called for each element that appeared, in the collection's order, with its
  ///     new serial; returns the element's slot.
  mutating func update<Elements: Sequence<Element>>(
    _ elements: Elements, key: (Element) -> Key,
    stay: (inout Slot, Element) -> Void,
    cancel: (_ serial: UInt64, _ slot: Slot) -> Void,
    launch: (_ serial: UInt64, _ element: Element) -> Slot
  ) {
    stamp &+= 1
    var stayed = 0
    for element in elements {
      if let index = present.index(forKey: key(element)) {
        present.values[index].stamp = stamp
        stay(&present.values[index].slot, element)
        stayed += 1
      } else {
        appearing.append(element)
      }
    }
    if stayed < present.count {
      for (leaver, entry) in present where entry.stamp != stamp {
        leaving.append((entry.serial, leaver))
      }
      leaving.sort { $0.serial < $1.serial }
      for (serial, leaver) in leaving {
        guard let entry = present.removeValue(forKey: leaver) else { continue }
        if running.removeValue(forKey: serial) != nil { cancel(serial, entry.slot) }
      }
      leaving.removeAll(keepingCapacity: true)
    }
    for element in appearing {
      lastSerial += 1
      running[lastSerial] = key(element)
      present[key(element)] = Entry(
        serial: lastSerial, stamp: stamp, slot: launch(lastSerial, element))
    }
    appearing.removeAll(keepingCapacity: true)
  }

  /// Records that launch `serial` ended; if its element is still present, `body` may update
  /// the element's slot. A serial that is not running (cancelled, or unknown) is ignored.
  mutating func ended(_ serial: UInt64, _ body: (inout Slot) -> Void = { _ in }) {
    guard let key = running.removeValue(forKey: serial),
      let index = present.index(forKey: key)
    else { return }
    body(&present.values[index].slot)
  }
}

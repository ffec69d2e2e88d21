import CMemoryFloor
import Foundation

/// `weft-bench memory-floor`: what walking N subscribers costs this machine's memory, in C,
/// for the heap layouts a fan-out can have, from 1,000 to 1,000,000 subscribers.
///
/// It answers whether a delivery at 1M can be as cheap as at 10k: when the layout with one
/// heap object per subscriber is not flat in C, no engine built on that layout can be. The
/// per-subscriber work is the same in every row (a flag test, an indirect call, two stores);
/// only where the bytes live changes.
///
/// - Complexity: O(Σ sizes × rounds) per row; ≈ 20M subscriber visits per cell (5M quick).
func runMemoryFloorReport(quick: Bool) {
  let sizes = [1_000, 10_000, 100_000, 1_000_000]
  let visits = quick ? 5_000_000 : 20_000_000
  let rows: [(String, weft_layout, Int32)] = [
    ("registration + token + view (a closure subscriber)", weft_layout_registration_token_view, 0),
    ("  the same, prefetching 64 ahead", weft_layout_registration_token_view, 1),
    ("one object + token (MainActorObserver)", weft_layout_object_token, 0),
    ("  the same, prefetching 64 ahead", weft_layout_object_token, 1),
    ("8-byte state in one array (no object)", weft_layout_dense, 0),
  ]
  print("Memory floor: ns per subscriber for one walk (C, fastest round)")
  print("  (one flag test, one indirect call, two stores per subscriber; only the layout differs)")
  let name = { (text: String) in text.padding(toLength: 52, withPad: " ", startingAt: 0) }
  let header = sizes.map { pad(format(Double($0), digits: 0), 10) }.joined()
  print("  \(name("layout"))\(header)  1M ÷ fastest")
  for (label, layout, prefetch) in rows {
    let figures = sizes.map { size in
      weft_memory_floor_walk(layout, prefetch, size, Int32(max(3, visits / size)))
    }
    // A negative figure: the walk's lists could not be allocated.
    let cells = figures.map { pad($0 < 0 ? "no memory" : format($0, digits: 2), 10) }.joined()
    let ratio = figures.last! / figures.dropLast().min()!
    print("  \(name(label))\(cells)  \(figures.contains { $0 < 0 } ? "–" : format(ratio) + "×")")
  }
}

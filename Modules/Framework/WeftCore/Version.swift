/// The Weft package itself: facts about the release you are linking.
///
/// - Note: Isolation: a namespace of immutable constants; readable from any isolation.
public enum Weft {
  /// The version of this Weft release, in Semantic Versioning form (`MAJOR.MINOR.PATCH`).
  ///
  /// This is the one place the version lives: `weft-sim --version` prints it, the git tag of a
  /// release spells it (`0.1.0`, as SwiftPM expects), and a test keeps it equal to the top
  /// released entry of `CHANGELOG.md`. See `docs/releasing.md`.
  ///
  /// ```swift
  /// print("Weft \(Weft.version)")  // Weft 0.1.0
  /// ```
  ///
  /// - Complexity: O(1), a constant.
  /// - Note: Isolation: immutable; readable from any isolation without `await`.
  public static let version = "0.1.0"
}

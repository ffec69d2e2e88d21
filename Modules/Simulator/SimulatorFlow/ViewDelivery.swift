/// How a group of headless views gets changes: WeftCore's MainActor callbacks, or the
/// Observation bridge (`withObservationTracking` over a WeftObservation model).
///
/// - Note: Isolation: a `Sendable` value.
public enum ViewDelivery: String, Sendable, Equatable, Codable {
  /// `views N observe PATH`: each view is a WeftCore MainActor subscriber of the path.
  case callbacks
  /// `views N observe PATH via observation`: each view reads the path through an
  /// `ObservedState` model inside `withObservationTracking`.
  case observation
}

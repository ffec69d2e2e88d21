// Optional SwiftUI sugar. Nothing in Weft requires it: on platforms without SwiftUI (Linux,
// where Weft's CI runs) this file compiles to nothing, and every binding stays usable through
// `get()` and `set(_:)`. What it passes to `SwiftUI.Binding(get:set:)` is made by
// `mainActorAccessors` (ContextBinding+Accessors.swift), compiled and tested on Linux against
// the three ways an SDK may annotate those closures; this file only makes the call.
import WeftContexts

#if canImport(SwiftUI)
import SwiftUI

extension WeftContexts.ContextBinding where Value: Sendable {
  /// This binding as a `SwiftUI.Binding`, for controls: `TextField("Name", text:
  /// profile.bind(\.name).swiftUI)`. Reads stay tracked per property (the view re-renders
  /// only when what it read changes) and writes still go through the owner.
  ///
  /// ```swift
  /// struct ProfileForm: View {
  ///   let profile: ObservedContext<ProfileClient>
  ///   var body: some View {
  ///     TextField("Name", text: profile.bind(\.name).swiftUI)
  ///     Stepper("Age", value: profile.bind(\.age).swiftUI, in: 0...150)
  ///   }
  /// }
  /// ```
  ///
  /// - Complexity: O(1); two closures.
  /// - Note: Isolation: MainActor: SwiftUI reads and writes bindings on the MainActor, and
  ///   the wrapped closures are the MainActor model's.
  /// - Note: Allocations: two closure contexts.
  @MainActor
  public var swiftUI: SwiftUI.Binding<Value> {
    let accessors = mainActorAccessors
    return SwiftUI.Binding(get: accessors.get, set: accessors.set)
  }
}

extension ObservedValidatedBinding {
  /// The validated binding as a `SwiftUI.Binding`: a refused value is not written, and
  /// `failure` (tracked) says why.
  ///
  /// - Complexity: O(1); two closures.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: two closure contexts.
  public var swiftUI: SwiftUI.Binding<Value> { binding.swiftUI }
}
#endif

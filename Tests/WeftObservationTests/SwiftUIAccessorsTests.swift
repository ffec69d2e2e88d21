import Testing
import WeftContexts
import WeftCore
import WeftObservation

/// `SwiftUI.Binding(get:set:)` as SDKs have declared it: plain closures, `@Sendable` ones
/// (Xcode 16), and `@isolated(any) @Sendable` ones. The SwiftUI sugar passes
/// `mainActorAccessors` to it; these stand-ins prove on Linux that the call compiles against
/// each, and that reads and writes reach the binding.
private struct PlainBinding<Value> {
  let get: () -> Value
  let set: (Value) -> Void
  init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.get = get
    self.set = set
  }
}

private struct SendableBinding<Value> {
  let get: @Sendable () -> Value
  let set: @Sendable (Value) -> Void
  init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
    self.get = get
    self.set = set
  }
}

private struct IsolatedAnyBinding<Value> {
  init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {}
}

@Suite("The SwiftUI sugar's accessors")
@MainActor
struct SwiftUIAccessorsTests {
  @Test func theAccessorsFitEverySDKSignatureAndReachTheBinding() {
    final class Box { var value = "a" }
    let box = Box()
    let binding = ContextBinding(get: { box.value }, set: { box.value = $0 })
    let accessors = binding.mainActorAccessors
    let plain = PlainBinding(get: accessors.get, set: accessors.set)
    let sendable = SendableBinding(get: accessors.get, set: accessors.set)
    _ = IsolatedAnyBinding(get: accessors.get, set: accessors.set)
    #expect(plain.get() == "a")
    plain.set("b")
    #expect(box.value == "b")
    sendable.set("c")
    #expect(sendable.get() == "c")
  }
}

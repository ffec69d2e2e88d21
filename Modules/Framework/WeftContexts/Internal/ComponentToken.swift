import WeftCore

/// A registration in a `ComponentRegistry` that unregisters itself when released, so a
/// context or a view that goes away leaves nothing behind in the registry.
///
/// - Note: Isolation: `Sendable`; the registry is thread-safe, so the release may happen on
///   any thread.
final class ComponentToken: Sendable {
  let id: ComponentID
  let registry: ComponentRegistry

  init(_ kind: ComponentRegistry.Kind, name: String, in registry: ComponentRegistry) {
    self.registry = registry
    self.id = registry.register(kind, name: name)
  }

  deinit { registry.unregister(id) }
}

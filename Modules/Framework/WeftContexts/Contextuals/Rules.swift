/// When a contextual may be used (its condition) and when it is gone (its expiry).
///
/// Built by the `if:`, `expiresIf:`, `expiresWith:` and `ifAttached:` variants of the add
/// methods. An expired contextual counts as absent everywhere: lookups skip it, posts skip
/// it, and adding another under its name replaces it. Expired entries are removed lazily,
/// the next time a lookup or a post meets them.
///
/// - Note: Isolation: MainActor; the closures run on the MainActor.
@MainActor
struct Rules {
  enum Condition {
    case always
    case custom(() -> Bool)
    case attached(WeakView)
  }

  enum Expiry {
    case never
    case custom(() -> Bool)
    case with(WeakObject)
    case view(WeakView)
  }

  var condition: Condition
  var expiry: Expiry

  init(condition: Condition, expiry: Expiry) {
    self.condition = condition
    self.expiry = expiry
  }

  init(if condition: (() -> Bool)?, expiresIf expiry: (() -> Bool)?) {
    self.condition = condition.map(Condition.custom) ?? .always
    self.expiry = expiry.map(Expiry.custom) ?? .never
  }

  init(if condition: (() -> Bool)?, expiresWith object: AnyObject) {
    self.condition = condition.map(Condition.custom) ?? .always
    self.expiry = .with(WeakObject(object))
  }

  /// Valid while `view` is attached to a window; expired once `view` is released.
  init(ifAttached view: any HeadlessView) {
    let weak = WeakView(view)
    self.condition = .attached(weak)
    self.expiry = .view(weak)
  }

  /// Whether the contextual is gone.
  var isExpired: Bool {
    switch expiry {
    case .never: false
    case .custom(let expired): expired()
    case .with(let weak): weak.object == nil
    case .view(let weak): weak.view == nil
    }
  }

  /// Whether the contextual may be used now.
  var conditionHolds: Bool {
    switch condition {
    case .always: true
    case .custom(let holds): holds()
    case .attached(let weak): weak.view?.isAttached ?? false
    }
  }

  /// The condition as named in messages.
  var conditionDescription: String {
    switch condition {
    case .always: "no condition"
    case .custom: "its condition (if:)"
    case .attached(let weak): "its condition (view '\(weak.name)' attached to a window)"
    }
  }
}

/// A contextual's body with its rules.
@MainActor
struct Contextual<Body> {
  var body: Body
  var rules: Rules
}

/// What a requestable stores: the erased provider and the type it provides.
@MainActor
struct RequestableBody {
  let provide: () -> Any
  let valueType: Any.Type
}

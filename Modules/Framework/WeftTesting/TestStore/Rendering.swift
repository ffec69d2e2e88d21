/// Renders values for failure messages: enums as `.case(payload)`, structs as
/// `Type(field: value)`, strings quoted, collections bracketed; long values on several
/// lines, one field per line, so that a diff points at the field that differs.
///
/// ```swift
/// Rendering.inline(LoginEvent.action(.usernameChanged("ada")))
/// // .action(.usernameChanged("ada"))
/// ```
///
/// - Complexity: O(n) in the size of the value (depth-limited).
/// - Note: Allocations: strings proportional to the output.
enum Rendering {
  /// Values whose one-line form fits in this many characters stay on one line.
  static let lineWidth = 60
  private static let maxDepth = 12

  /// The value on one line.
  static func inline(_ value: Any) -> String { inline(value, depth: 0) }

  /// The value on as many lines as it needs, indented by two spaces per level. With
  /// `expanded`, a struct or class is split into one field per line even when it would fit
  /// on one, so that a diff of two states points at the field that differs.
  static func lines(_ value: Any, expanded: Bool = false) -> [String] {
    lines(value, depth: 0, expanded: expanded)
  }

  private static func inline(_ value: Any, depth: Int) -> String {
    guard depth < maxDepth else { return "…" }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return "nil" }
      return inline(wrapped, depth: depth)
    case .enum:
      if let custom = customDescription(value) { return custom }
      guard let child = mirror.children.first else { return ".\(value)" }
      return ".\(child.label ?? "?")(\(payload(child.value, depth: depth + 1)))"
    case .struct, .class:
      if let custom = customDescription(value) { return custom }
      let fields = mirror.children.map {
        "\($0.label ?? "_"): \(inline($0.value, depth: depth + 1))"
      }
      return "\(typeName(value))(\(fields.joined(separator: ", ")))"
    case .tuple:
      return "(\(payload(value, depth: depth)))"
    case .collection, .set:
      let elements = mirror.children.map { inline($0.value, depth: depth + 1) }
      return "[\(sortedIfSet(elements, mirror).joined(separator: ", "))]"
    case .dictionary:
      let pairs = mirror.children.map { pair -> String in
        let parts = Mirror(reflecting: pair.value).children.map { $0.value }
        guard parts.count == 2 else { return inline(pair.value, depth: depth + 1) }
        return "\(inline(parts[0], depth: depth + 1)): \(inline(parts[1], depth: depth + 1))"
      }
      return pairs.isEmpty ? "[:]" : "[\(pairs.sorted().joined(separator: ", "))]"
    default:
      if let string = value as? String { return String(reflecting: string) }
      return String(describing: value)
    }
  }

  /// An enum payload or tuple: `label: value` for labelled elements, `value` otherwise.
  private static func payload(_ value: Any, depth: Int) -> String {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .tuple else { return inline(value, depth: depth) }
    return mirror.children.map { child in
      let text = inline(child.value, depth: depth + 1)
      guard let label = child.label, !label.hasPrefix(".") else { return text }
      return "\(label): \(text)"
    }.joined(separator: ", ")
  }

  private static func lines(_ value: Any, depth: Int, expanded: Bool = false) -> [String] {
    let single = inline(value, depth: depth)
    let mirror = Mirror(reflecting: value)
    let expands =
      expanded && (mirror.displayStyle == .struct || mirror.displayStyle == .class)
      && !mirror.children.isEmpty
    guard single.count > lineWidth || expands, depth < maxDepth else { return [single] }
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return ["nil"] }
      return lines(wrapped, depth: depth)
    case .struct where customDescription(value) == nil,
      .class where customDescription(value) == nil:
      let fields = mirror.children.map { (label: $0.label ?? "_", value: $0.value) }
      return block("\(typeName(value))(", ")", fields, depth: depth)
    case .enum where customDescription(value) == nil:
      guard let child = mirror.children.first else { return [single] }
      let payload = Mirror(reflecting: child.value)
      let elements =
        payload.displayStyle == .tuple
        ? payload.children.map { (label: $0.label ?? "_", value: $0.value) }
        : [(label: "_", value: child.value)]
      return block(".\(child.label ?? "?")(", ")", elements, depth: depth)
    case .collection, .set:
      let elements = mirror.children.map { (label: "_", value: $0.value) }
      return block("[", "]", elements, depth: depth)
    default:
      return [single]
    }
  }

  /// `open`, one indented element per line (comma-separated), `close`.
  private static func block(
    _ open: String, _ close: String, _ elements: [(label: String, value: Any)], depth: Int
  ) -> [String] {
    var result = [open]
    for (index, element) in elements.enumerated() {
      var body = lines(element.value, depth: depth + 1)
      let showsLabel = element.label != "_" && !element.label.hasPrefix(".")
      if showsLabel { body[0] = "\(element.label): \(body[0])" }
      if index < elements.count - 1 { body[body.count - 1] += "," }
      result += body.map { "  \($0)" }
    }
    result.append(close)
    return result
  }

  private static func typeName(_ value: Any) -> String {
    let name = String(describing: type(of: value))
    return name.split(separator: ".").last.map(String.init) ?? name
  }

  /// The description of a type that wrote its own, so `Duration` or a tagged id renders as
  /// its author meant.
  private static func customDescription(_ value: Any) -> String? {
    if let value = value as? any CustomDebugStringConvertible { return value.debugDescription }
    if let value = value as? any CustomStringConvertible { return value.description }
    return nil
  }

  private static func sortedIfSet(_ elements: [String], _ mirror: Mirror) -> [String] {
    mirror.displayStyle == .set ? elements.sorted() : elements
  }
}

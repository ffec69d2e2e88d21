/// Builds SQL text for one table, with every value bound as a numbered parameter (`?1`,
/// `?2`, …) and every identifier checked and quoted.
///
/// Values never reach the SQL text, so no input can change a statement's meaning, and the
/// text depends only on the predicate's shape (a UUID value counts as two parameters: its
/// canonical and lower-case text): one cached statement serves every value.
struct SQLBuilder {
  let table: String
  private(set) var sql = ""
  private(set) var arguments: [DatabaseValue] = []

  init(table: String) { self.table = table }

  /// `"name"`, with embedded quotes doubled.
  static func quote(_ identifier: String) -> String {
    if !identifier.utf8.contains(UInt8(ascii: "\"")) { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacing("\"", with: "\"\"") + "\""
  }

  /// Whether `name` is a plain identifier: `[A-Za-z_][A-Za-z0-9_]*`.
  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, first == UInt8(ascii: "_") || first.isASCIILetter else {
      return false
    }
    return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0.isASCIILetter || $0.isASCIIDigit }
  }

  /// The quoted column for `field`, or `PersistenceError.invalidField`.
  func column(_ field: Field) throws(PersistenceError) -> String {
    guard Self.isIdentifier(field.name) else {
      throw PersistenceError.invalidField(table: table, field: field.name)
    }
    return Self.quote(field.name)
  }

  mutating func append(_ text: String) { sql += text }

  /// Records `value` as the next parameter and returns its placeholder (`?N`).
  mutating func placeholder(_ value: DatabaseValue) -> String {
    arguments.append(value)
    return "?" + String(arguments.count)
  }

  /// Appends a placeholder bound to `value`.
  mutating func bind(_ value: DatabaseValue) { sql += placeholder(value) }

  mutating func bind(
    encoding value: any Encodable & Sendable, field: Field
  ) throws(PersistenceError) {
    do {
      bind(try ColumnValue.encode(value, codingPath: []))
    } catch {
      throw PersistenceError.encodingFailed(
        table: table, codingPath: field.name, detail: "predicate value: \(error)")
    }
  }

  // MARK: Clauses

  /// Appends ` WHERE …` for `predicate` (nothing when `nil`).
  mutating func appendWhere(_ predicate: RecordPredicate?) throws(PersistenceError) {
    guard let predicate else { return }
    sql += " WHERE "
    try append(predicate.node)
  }

  mutating func append(_ node: RecordPredicate.Node) throws(PersistenceError) {
    switch node {
    case .compare(let field, let comparison, let value):
      if let forms = UUIDForms.of(value), comparison == .equal || comparison == .notEqual {
        try appendUUIDComparison(field, equal: comparison == .equal, forms)
        return
      }
      sql += try column(field) + " \(comparison.rawValue) "
      try bind(encoding: value, field: field)
    case .isNull(let field, let negated):
      sql += try column(field) + (negated ? " IS NOT NULL" : " IS NULL")
    case .isIn(let field, let values):
      guard !values.isEmpty else {
        _ = try column(field)
        sql += "0"
        return
      }
      sql += try column(field) + " IN ("
      for (offset, value) in values.enumerated() {
        if offset > 0 { sql += ", " }
        if let forms = UUIDForms.of(value) {
          bind(forms.canonical)
          sql += ", "
          bind(forms.lower)
        } else {
          try bind(encoding: value, field: field)
        }
      }
      sql += ")"
    case .contains(let field, let substring):
      sql += "instr(" + (try column(field)) + ", "
      bind(.text(substring))
      sql += ") > 0"
    case .hasPrefix(let field, let prefix):
      let column = try column(field)
      let parameter = placeholder(.text(prefix))
      sql += "substr(\(column), 1, length(\(parameter))) = \(parameter)"
    case .containsElement(let field, let element):
      // Qualified: json_each has its own `id`, `key`, `value` … columns.
      let column = Self.quote(table) + "." + (try column(field))
      sql += "EXISTS (SELECT 1 FROM json_each(\(column)) WHERE json_each.value "
      if let forms = UUIDForms.of(element) {
        sql += "IN ("
        bind(forms.canonical)
        sql += ", "
        bind(forms.lower)
        sql += "))"
      } else {
        sql += "= "
        try bind(encoding: element, field: field)
        sql += ")"
      }
    case .and(let left, let right):
      sql += "("
      try append(left)
      sql += " AND "
      try append(right)
      sql += ")"
    case .or(let left, let right):
      sql += "("
      try append(left)
      sql += " OR "
      try append(right)
      sql += ")"
    case .not(let operand):
      sql += "NOT ("
      try append(operand)
      sql += ")"
    case .constant(let value):
      sql += value ? "1" : "0"
    }
  }

  /// A UUID equals the field when the field holds its canonical or its lower-case text
  /// (`IN`, which an index still serves); it differs when the field holds neither (`IS NOT`,
  /// so a NULL field differs, as `!=` promises).
  private mutating func appendUUIDComparison(
    _ field: Field, equal: Bool, _ forms: (canonical: DatabaseValue, lower: DatabaseValue)
  ) throws(PersistenceError) {
    let column = try column(field)
    if equal {
      sql += column + " IN (" + placeholder(forms.canonical) + ", "
      sql += placeholder(forms.lower) + ")"
    } else {
      sql += "(" + column + " IS NOT " + placeholder(forms.canonical) + " AND " + column
      sql += " IS NOT " + placeholder(forms.lower) + ")"
    }
  }

  /// Appends ` ORDER BY …`, ` LIMIT …` and ` OFFSET …` as needed.
  mutating func appendOrder(_ sortBy: [Sort], limit: Int?, offset: Int?) throws(PersistenceError) {
    if !sortBy.isEmpty {
      sql += " ORDER BY "
      for (position, sort) in sortBy.enumerated() {
        if position > 0 { sql += ", " }
        sql += try column(sort.field) + (sort.ascending ? " ASC" : " DESC")
      }
    }
    if limit != nil || offset != nil {
      sql += " LIMIT "
      bind(.integer(Int64(limit ?? -1)))
    }
    if let offset {
      sql += " OFFSET "
      bind(.integer(Int64(offset)))
    }
  }
}

extension UInt8 {
  fileprivate var isASCIILetter: Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
  }
  fileprivate var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}

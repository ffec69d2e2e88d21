import Foundation
import WeftContexts
import WeftCore

/// The grade-weights form of the context-tree design, headless: a class context with a
/// grade basis, and one subcontext per assessment category, each with a total and an each
/// weight field kept in step through requestables.
///
/// ```swift
/// let form = try GradeWeightsForm(in: appContext)        // COP101: Assignments ×4, Exams ×2
/// try form.set(.total, of: "Assignments", to: "40")     // each becomes 10
/// try form.set(.each, of: "Exams", to: "45")            // total becomes 90
/// form.state.exceedsLimit                               // true: 130% > 100%
/// form.setBasis(.points)                                // no limit in points
/// let basis = try form.request("grade-basis", at: "Exams")   // .basis(.points)
/// ```
///
/// ```
/// <parent>
/// └─ COP101 (GradeClassContext)        grade-basis, percents-is-selected
///    ├─ Assignments (GradeCategoryContext, 4)  total-weight, each-weight, number-of-assessments
///    └─ Exams (GradeCategoryContext, 2)        total-weight, each-weight, number-of-assessments
/// ```
///
/// Every operation the simulator can reach uses the contexts' throwing twins: misuse (a name
/// not visible from a path, an ambiguous request, a flag set twice) throws
/// `GradeWeightsError.context` with the context's own message, and the form goes on. Each
/// operation ends with one commit of `state` to `cell`.
///
/// # Performance
/// Typing into a field costs two posts in its category (O(d) each), two requests and one
/// class check (O(c)), then one state rebuild (O(c·d)) and one commit.
///
/// - Note: Isolation: MainActor (contexts live there); the cell's commits happen on it.
/// - Note: Allocations: the contexts, fields and selector at creation; per operation, the
///   state's category array.
@MainActor
public final class GradeWeightsForm {
  /// The form's state.
  public nonisolated let cell: StateCell<GradeWeightsState>
  /// The class context.
  public let classContext: GradeClassContext
  /// The category contexts, in creation order.
  public let categoryContexts: [GradeCategoryContext]

  private let selector: GradeBasisSelector
  private var fields: [String: (total: WeightField, each: WeightField)] = [:]

  /// Builds the form's context tree below `parent`.
  ///
  /// - Parameters:
  ///   - className: the class context's name.
  ///   - categories: each category's name and number of assessments (at least 1).
  ///   - basis: the starting grade basis.
  ///   - parent: where to attach the class context (held weakly there; the form keeps it).
  ///   - monitor: where the form's cell is counted and whose queue delivers its MainActor
  ///     changes (the process-wide one by default).
  /// - Throws: `GradeWeightsError.context` when a name is already taken (two categories with
  ///   one name), `.invalidCount` for a count below 1.
  /// - Complexity: O(c), c = categories.
  /// - Note: Isolation: MainActor, like the contexts it builds.
  public init(
    className: String = "COP101",
    categories: [(name: String, count: Int)] = [("Assignments", 4), ("Exams", 2)],
    basis: GradeBasis = .percent, in parent: Context = .global,
    monitor: PerformanceMonitor = .shared
  ) throws(GradeWeightsError) {
    let classContext = parent.createSubcontext(ofType: GradeClassContext.self, named: className)
    self.classContext = classContext
    var contexts: [GradeCategoryContext] = []
    var fields: [String: (total: WeightField, each: WeightField)] = [:]
    do {
      selector = try GradeBasisSelector(basis: basis, context: classContext)
      for (name, count) in categories {
        guard count >= 1 else {
          throw GradeWeightsError.invalidCount(String(count), category: name)
        }
        guard fields[name] == nil else {
          throw GradeWeightsError.context(
            .nameTaken(.requestable, name: "total-weight", context: classContext.path + "/" + name))
        }
        let context = classContext.createSubcontext(ofType: GradeCategoryContext.self, named: name)
        context.numberOfAssessments = count
        contexts.append(context)
        fields[name] = (
          try WeightField(.total, context: context), try WeightField(.each, context: context)
        )
      }
    } catch let error as GradeWeightsError {
      throw error
    } catch let error as ContextError {
      throw .context(error)
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    self.categoryContexts = contexts
    self.fields = fields
    self.cell = StateCell(
      GradeWeightsState(
        className: className, classPath: classContext.path, basis: basis, categories: [],
        weightSum: 0, exceedsLimit: false, checks: 0, lastError: nil),
      name: "GradeWeightsForm", monitor: monitor)
    publish(error: nil)
  }

  /// The latest committed state.
  ///
  /// - Complexity: O(1).
  public var state: GradeWeightsState { cell.state }

  // MARK: Editing

  /// Sets a category's total, each weight or number of assessments, as if typed.
  ///
  /// Typing a total fills in each = total ÷ count; typing an each weight fills in
  /// total = each × count; changing the count refills the field the person did not type
  /// last. Then the class checks the sum.
  ///
  /// - Throws: `.unknownCategory`, `.invalidCount`, or `.context` when a context operation
  ///   fails (the state still commits, with `lastError` set).
  /// - Complexity: O(d + c) plus one commit.
  public func set(
    _ field: GradeWeightField, of category: String, to text: String
  ) throws(GradeWeightsError) {
    guard let context = categoryContext(category), let pair = fields[context.name] else {
      throw .unknownCategory(category, known: categoryContexts.map(\.name))
    }
    do {
      switch field {
      case .total: try pair.total.userTyped(text)
      case .each: try pair.each.userTyped(text)
      case .count:
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let count = Int(trimmed), count >= 1 else {
          throw GradeWeightsError.invalidCount(text, category: category)
        }
        context.numberOfAssessments = count
        // Refill the field the person did not type last; the total leads by default.
        try (context.flagIsSet(.eachFieldSetByUser) ? pair.each : pair.total).announce()
      }
    } catch let error as GradeWeightsError {
      publish(error: error)
      throw error
    } catch let error as ContextError {
      publish(error: .context(error))
      throw .context(error)
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    publish(error: nil)
  }

  /// Sets a field to a number, written as a person would type it (`40`, `12.5`); counts
  /// must be whole.
  ///
  /// - Throws: as `set(_:of:to:)` with text.
  /// - Complexity: as `set(_:of:to:)` with text.
  public func set(
    _ field: GradeWeightField, of category: String, to value: Double
  ) throws(GradeWeightsError) {
    try set(field, of: category, to: formatWeight(value))
  }

  /// Sets the grade basis and re-runs the class check.
  ///
  /// - Complexity: O(c + d) plus one commit.
  public func setBasis(_ basis: GradeBasis) {
    selector.basis = basis
    classContext.post(name: .gradeBasisChanged)
    publish(error: classContext.lastError.map(GradeWeightsError.context))
  }

  // MARK: Contexts by path

  /// The context at `path`: the class (`""`, `"."`, its name) or a category (its name), or
  /// any path whose last segments name one of them — `global/COP101/Assignments`,
  /// `COP101/Assignments`, `Assignments` — compared without regard to case.
  ///
  /// - Throws: `.unknownContext`, listing the paths that exist.
  /// - Complexity: O(c·d).
  public func context(at path: String) throws(GradeWeightsError) -> Context {
    var wanted = path.lowercased().split(separator: "/").map(String.init).filter { $0 != "." }
    if wanted.isEmpty { return classContext }
    let candidates: [Context] = [classContext] + categoryContexts
    // A path written from another root (`global/COP101/Exams` for a form attached below an
    // app context) is read from the class's name on.
    let className = classContext.name.lowercased()
    for attempt in 0..<2 {
      for context in candidates {
        let segments = context.path.lowercased().split(separator: "/").map(String.init)
        if segments.count >= wanted.count, Array(segments.suffix(wanted.count)) == wanted {
          return context
        }
      }
      guard attempt == 0, let start = wanted.firstIndex(of: className), start > 0 else { break }
      wanted.removeFirst(start)
    }
    throw .unknownContext(path: path, known: candidates.map(\.path))
  }

  /// Requests the requestable `name` from the context at `path` (throwing twin).
  ///
  /// - Throws: `.unknownContext`, or `.context` with the request's `ContextError`
  ///   (`ambiguous` for `total-weight` from the class, for example).
  /// - Complexity: O(d) expected; the error path walks the subtree.
  public func request(
    _ name: String, at path: String
  ) throws(GradeWeightsError)
    -> GradeRequestedValue
  {
    let context = try context(at: path)
    do {
      return GradeRequestedValue(try context.tryRequest(Requestable.Name(name), as: Any.self))
    } catch {
      throw .context(error)
    }
  }

  /// Sets flag `name` on the context at `path` (throwing twin), then commits.
  ///
  /// - Throws: `.unknownContext`, or `.context(.flagAlreadySet)`.
  /// - Complexity: O(d) expected.
  public func setFlag(_ name: String, at path: String) throws(GradeWeightsError) {
    let context = try context(at: path)
    do {
      try context.trySetFlag(Flag.Name(name))
    } catch {
      throw .context(error)
    }
    publish(error: nil)
  }

  /// Unsets flag `name` where it is set as seen from `path` (throwing twin), then commits.
  ///
  /// - Throws: `.unknownContext`, or `.context(.flagNotSet)`.
  /// - Complexity: O(d) expected.
  public func unsetFlag(_ name: String, at path: String) throws(GradeWeightsError) {
    let context = try context(at: path)
    do {
      try context.tryUnsetFlag(Flag.Name(name))
    } catch {
      throw .context(error)
    }
    publish(error: nil)
  }

  /// Whether flag `name` is set as seen from `path`.
  ///
  /// - Throws: `.unknownContext`.
  /// - Complexity: O(d) expected.
  public func flagIsSet(_ name: String, at path: String) throws(GradeWeightsError) -> Bool {
    try context(at: path).flagIsSet(Flag.Name(name))
  }

  /// Posts the notification `name` on the context at `path`: observers in its
  /// context-tree run (the class re-checks on `assessment-category-weight-changed` and
  /// `grade-basis-changed`), then commits.
  ///
  /// - Throws: `.unknownContext`.
  /// - Complexity: O(d + s), as `Context.post`.
  public func post(_ name: String, at path: String) throws(GradeWeightsError) {
    try context(at: path).post(name: Notification.Name(name))
    publish(error: nil)
  }

  /// Executes the executable `name` from the context at `path` (throwing twin), then
  /// commits.
  ///
  /// - Throws: `.unknownContext`, or `.context` (`ambiguous` for `swap-weight-input-views`
  ///   from the class).
  /// - Complexity: O(d) expected.
  public func execute(_ name: String, at path: String) throws(GradeWeightsError) {
    let context = try context(at: path)
    do {
      try context.tryExecute(Executable.Name(name))
    } catch {
      throw .context(error)
    }
    publish(error: nil)
  }

  // MARK: State

  /// The category named `name`, compared without regard to case.
  private func categoryContext(_ name: String) -> GradeCategoryContext? {
    let wanted = name.lowercased()
    return categoryContexts.first { $0.name.lowercased() == wanted }
  }

  /// Rebuilds the state from the contexts and fields and commits it.
  private func publish(error: GradeWeightsError?) {
    let categories = categoryContexts.map { context -> GradeCategoryState in
      let pair = fields[context.name]
      let edited: GradeWeightField? =
        context.flagIsSet(.totalFieldSetByUser)
        ? .total : context.flagIsSet(.eachFieldSetByUser) ? .each : nil
      // The basis is asked from the category itself: it is provided on the class context
      // above, so the request is never ambiguous.
      // A misuse of the contexts is reported by `lastError`, not here.
      // No basis is shown as the documented "?" suffix, the display for "no basis".
      let basis = try? context.tryRequest(.gradeBasis, as: GradeBasis.self)  // try?: above
      return GradeCategoryState(
        name: context.name, path: context.path, numberOfAssessments: context.numberOfAssessments,
        totalText: pair?.total.text ?? "", eachText: pair?.each.text ?? "", editedField: edited,
        suffix: basis?.suffix ?? "?", showsTotalField: context.showsTotalField)
    }
    let classContext = self.classContext
    let basis = selector.basis
    cell.update { state in
      state.basis = basis
      state.categories = categories
      state.weightSum = classContext.weightSum
      state.exceedsLimit = classContext.sumExceeds100Percent
      state.checks = classContext.checks
      state.lastError = error?.description
    }
  }
}

/// The headless views a flow has attached, by group name, so that `views detach` can be
/// checked before the flow runs.
struct ViewGroups: Sendable {
  private(set) var counts: [String: Int] = [:]
  /// Group names in the order they were first attached, for suggestions.
  private(set) var order: [String] = []
  private(set) var total = 0

  mutating func attach(
    _ count: Int, as name: String, at span: Span, in source: Source
  )
    throws(FlowError)
  {
    let (sum, overflow) = total.addingReportingOverflow(count)
    guard !overflow, sum <= Environment.maxViews else {
      throw source.error(
        .valueOutOfRange, at: span,
        "attaching \(NumberText.grouped(count)) views would pass the limit of "
          + "\(NumberText.grouped(Environment.maxViews)) attached views",
        hint: "detach views first, or attach fewer")
    }
    if counts[name] == nil { order.append(name) }
    counts[name, default: 0] += count
    total = sum
  }

  mutating func detach(
    _ count: Int?, from name: String, at span: Span, in source: Source
  )
    throws(FlowError)
  {
    guard let attached = counts[name] else {
      let live = order.filter { counts[$0] != nil }
      let hint: String =
        if let match = Suggestion.nearest(to: name, among: live) {
          "did you mean '\(match.word)'?"
        } else if live.isEmpty {
          "no views are attached at this point; attach some with 'views N observe PATH'"
        } else {
          "attached groups: \(live.joined(separator: ", "))"
        }
      throw source.error(
        .unknownViewGroup, at: span, "no views named '\(name)' are attached", hint: hint)
    }
    let removed = count ?? attached
    guard removed <= attached else {
      throw source.error(
        .unknownViewGroup, at: span,
        "cannot detach \(NumberText.grouped(removed)) views from '\(name)': only "
          + "\(NumberText.grouped(attached)) are attached",
        hint: "detach at most \(NumberText.grouped(attached)), or leave out the count to detach all"
      )
    }
    counts[name] = attached == removed ? nil : attached - removed
    total -= removed
  }

  mutating func detachAll() {
    counts = [:]
    total = 0
  }
}
